package runtimetest

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

var (
	browserOnce sync.Once
	browser     *chromium.Browser
	browserErr  error
)

// RequireChromium fails loudly when Chromium is missing: the test command (ci/test)
// installs it, so a missing browser is a broken set-up, never a reason to skip.
func RequireChromium() error {
	if _, err := os.Stat(chromium.DefaultExecutable); err != nil {
		return fmt.Errorf("%s is missing: run ci/setup (or ci/test, which installs it)", chromium.DefaultExecutable)
	}
	return nil
}

// Browser returns the package's shared Chromium, launching it on first use.
func Browser() (*chromium.Browser, error) {
	browserOnce.Do(func() {
		if browserErr = RequireChromium(); browserErr != nil {
			return
		}
		browser, browserErr = chromium.Launch(context.Background(), chromium.Options{})
	})
	return browser, browserErr
}

// Cleanup closes the shared browser and removes the built binary. Call it from TestMain,
// then RemoveIsolated once the leak check has looked in the isolated directory.
func Cleanup() {
	if browser != nil {
		_ = browser.Close()
	}
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
}

// RemoveIsolated removes the private TMPDIR Isolate made (profiles left there included).
func RemoveIsolated() {
	if isolated != "" {
		_ = os.RemoveAll(isolated)
	}
}
