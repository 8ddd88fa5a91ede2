package runtimetest

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	brokenOnce sync.Once
	brokenPath string
	brokenErr  error
)

// BrokenWorker builds the conformance suite's deliberately broken worker
// (runtime/conformance/testdata/brokenworker) once per test process, beside Binary, and
// returns the worker command line for mode (one of brokenworker's modes): it wraps
// the built binary's own worker.
func BrokenWorker(mode string) (path string, args []string, err error) {
	bin, err := Binary()
	if err != nil {
		return "", nil, err
	}
	brokenOnce.Do(func() {
		brokenPath = filepath.Join(binDir, "brokenworker")
		out, err := exec.Command("go", "build", "-o", brokenPath, "github.com/fastbrowser/fastbrowser/runtime/conformance/testdata/brokenworker").CombinedOutput()
		if err != nil {
			brokenErr = fmt.Errorf("go build brokenworker: %v\n%s", err, out)
		}
	})
	return brokenPath, []string{mode, bin, "worker"}, brokenErr
}
