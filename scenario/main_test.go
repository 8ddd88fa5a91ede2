package scenario

import (
	"fmt"
	"os"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

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
	code := m.Run()
	runtimetest.Cleanup()
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		fmt.Fprintln(os.Stderr, "scenario tests:", err)
		code = 1
	}
	os.Exit(code)
}
