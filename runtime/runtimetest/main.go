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
func Main(m *testing.M, name string) int { return testMain(m, name, true) }

// MainBrowserOnDemand is Main for a package many of whose tests need no browser (scenario's
// parse, schema and matcher tests): Chromium is required only once a test asks for one
// (Browser and Open check it and fail loudly; a launch fails launch_failed), so those tests
// also run where no Chromium is installed.
func MainBrowserOnDemand(m *testing.M, name string) int { return testMain(m, name, false) }

func testMain(m *testing.M, name string, requireChromium bool) int {
	if err := Isolate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	before := Take()
	if requireChromium {
		if err := RequireChromium(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if _, err := Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("PATH", BinDir()+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	Cleanup()
	// Profiles are looked for in the isolated TMPDIR: remove it only after the check.
	if err := AwaitNoLeaks(before); err != nil {
		fmt.Fprintf(os.Stderr, "%s tests: %v\n", name, err)
		code = 1
	}
	RemoveIsolated()
	return code
}
