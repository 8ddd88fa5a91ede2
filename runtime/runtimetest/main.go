package runtimetest

import (
	"fmt"
	"os"
	"testing"
)

// Main is a test package's TestMain for tests that drive real Chromium: it isolates TMPDIR,
// fails at once when Chromium is missing (ci/test installs it; a missing browser is never a
// reason to skip), builds the fastbrowser binary and puts its directory first on PATH (managed
// fixture servers start `fastbrowser` by name), runs the tests, and fails the run if any
// Chromium, worker, fixture server or profile directory outlives them.
func Main(m *testing.M, name string) int {
	if err := Isolate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	before := Take()
	if err := RequireChromium(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("PATH", BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	Cleanup()
	if err := AwaitNoLeaks(before); err != nil {
		fmt.Fprintf(os.Stderr, "%s tests: %v\n", name, err)
		code = 1
	}
	return code
}
