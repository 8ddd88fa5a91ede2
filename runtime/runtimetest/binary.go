package runtimetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

var (
	binOnce sync.Once
	binPath string
	binDir  string
	binErr  error
)

// Binary builds cmd/fastbrowser once per test process and returns its path. Call Cleanup
// from TestMain to remove it.
func Binary() (string, error) {
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "fastbrowser-testbin-*")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "fastbrowser")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/fastbrowser/fastbrowser/cmd/fastbrowser")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build cmd/fastbrowser: %v\n%s", err, out)
		}
	})
	return binPath, binErr
}

// BinDir is the directory holding the built binary (to put on PATH), "" before Binary.
func BinDir() string { return binDir }
