package runtimetest

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// PlainBrowser is a Chromium started the way a person or a browser service starts one, not
// by fastbrowser's launcher: only --headless=new, --no-sandbox (as root), a debugging port
// and a fresh profile. Its background traffic (autofill, component updates, …) is on, and
// so is WebRTC's UDP.
type PlainBrowser struct {
	// WebSocketURL is the browser's DevTools endpoint; HTTPURL is http://127.0.0.1:PORT.
	WebSocketURL, HTTPURL string
}

// StartPlainBrowser starts a plain Chromium owned by the test: it is stopped and its profile
// (named fastbrowser-profile-*, so the leak check sees one left behind) removed when the
// test ends.
func StartPlainBrowser(t testing.TB) PlainBrowser {
	t.Helper()
	profile, err := os.MkdirTemp("", "fastbrowser-profile-plain-*")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless=new", "--remote-debugging-port=0", "--user-data-dir=" + profile}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	found := make(chan string, 1)
	proc, err := process.Start(process.Spec{Path: chromium.DefaultExecutable, Args: args, StderrTap: chromium.DevToolsTap(found)})
	if err != nil {
		_ = os.RemoveAll(profile)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := proc.Stop(budgets.ProcessStopGrace().Default); err != nil {
			t.Errorf("stop the plain browser: %v", err)
			return
		}
		if err := chromium.RemoveProfile(profile); err != nil {
			t.Errorf("remove the plain browser's profile: %v", err)
		}
	})
	timer := time.NewTimer(budgets.BrowserStartup().Default)
	defer timer.Stop()
	select {
	case ws := <-found:
		host := strings.Split(strings.TrimPrefix(ws, "ws://"), "/")[0]
		return PlainBrowser{WebSocketURL: ws, HTTPURL: "http://" + host}
	case <-proc.Done():
		t.Fatal("the plain browser exited before DevTools was ready")
	case <-timer.C:
		t.Fatalf("the plain browser's DevTools URL not seen within %s", budgets.BrowserStartup().Default)
	}
	return PlainBrowser{}
}
