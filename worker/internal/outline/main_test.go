package outline_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

// The package's one Chromium, shared by the golden tests and the benchmark. It is launched
// on first use, so the unit tests alone never start a browser.
var (
	browserOnce sync.Once
	browser     *chromium.Browser
	browserErr  error
)

// sharedBrowser returns the package's Chromium. Chromium is required: a missing browser is
// a broken set-up (ci/test installs it), never a reason to skip.
func sharedBrowser(tb testing.TB) *chromium.Browser {
	tb.Helper()
	browserOnce.Do(func() {
		browser, browserErr = chromium.Launch(context.Background(), chromium.Options{})
	})
	if browserErr != nil {
		tb.Fatal(browserErr)
	}
	return browser
}

// TestMain keeps every profile under a private TMPDIR and removes it, with the browser,
// when the tests end.
func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "fastbrowser-outline-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	if browser != nil {
		if err := browser.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	return code
}
