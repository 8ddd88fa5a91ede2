package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

func TestMain(m *testing.M) { os.Exit(runtimetest.Main(m, "cmd")) }

// cliResult is what one in-process CLI run printed and returned.
type cliResult struct {
	code           int
	stdout, stderr string
}

// runCLI runs the whole CLI in process, as a user would call it, with the built binary as
// the worker.
func runCLI(t *testing.T, env map[string]string, args ...string) cliResult {
	t.Helper()
	bin, _ := runtimetest.Binary()
	var out, errb bytes.Buffer
	st := &state{stdin: bytes.NewReader(nil), stdout: &out, stderr: &errb, workerPath: bin,
		lookupEnv: func(k string) (string, bool) {
			if v, ok := env[k]; ok {
				return v, true
			}
			return os.LookupEnv(k)
		}}
	code := run(context.Background(), st, append([]string{"fastbrowser"}, args...))
	return cliResult{code, out.String(), errb.String()}
}
