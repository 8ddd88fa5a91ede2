package runtime_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestMain shares one Chromium across the package (one browser context per test) and fails
// the run if any Chromium, worker or profile directory outlives the tests.
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
	code := m.Run()
	runtimetest.Cleanup()
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		fmt.Fprintln(os.Stderr, "runtime tests:", err)
		code = 1
	}
	os.Exit(code)
}
