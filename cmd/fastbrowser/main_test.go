package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestMain builds the binary once: the quick-start scenarios start `fastbrowser fixture
// serve` by name (so the build goes on PATH), and sessions use it as their worker.
func TestMain(m *testing.M) {
	if err := runtimetest.Isolate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	before := runtimetest.Take()
	if err := runtimetest.RequireChromium(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := runtimetest.Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("PATH", runtimetest.BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	runtimetest.Cleanup()
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		fmt.Fprintln(os.Stderr, "cmd tests:", err)
		code = 1
	}
	os.Exit(code)
}

// cli runs the whole CLI in process, as a user would call it.
type cliResult struct {
	code           int
	stdout, stderr string
}

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
