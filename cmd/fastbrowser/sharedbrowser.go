package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/transport"
)

// sharedBrowser is the run's one Chromium, launched on first use, so a run whose fixtures
// never come up never starts a browser. Each scenario gets its own worker and browser
// context in it.
//
// A launched browser that died (killed, crashed) is replaced for the scenarios that follow:
// the next session to open reaps the dead one's process group, removes its profile and
// launches a new one while concurrent openers wait (one relaunch, not one per job). A browser
// attached with --cdp-url is not ours to relaunch: once a session found it dead and it then
// refuses a new session, every later scenario fails at once saying so.
type sharedBrowser struct {
	udp     bool // leaves WebRTC's UDP on (a scenario allowing WebRTC under a "*" policy)
	mu      sync.Mutex
	browser *chromium.Browser
	err     error // a launch failed: every later scenario fails with it at once

	crashed bool  // attached: a session found the browser dead
	gone    error // attached: it died and refused the next session
}

// wsURL is the live browser's DevTools URL, launching it first when there is none or the
// one there was has died. A relaunch is recorded with event (kind "runtime", name
// "relaunch") and announced on log.
func (sb *sharedBrowser) wsURL(ctx context.Context, opts runtime.Options, event func(kind, name, status string), log io.Writer) (string, error) {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.err != nil {
		return "", sb.err
	}
	if sb.browser != nil && !sb.browser.Exited() {
		return sb.browser.WebSocketURL(), nil
	}
	dead := sb.browser
	if dead != nil {
		sb.browser = nil
		if err := dead.Close(); err != nil {
			fmt.Fprintf(log, "fastbrowser: the dead browser could not be cleaned up: %v\n", err)
		}
	}
	b, err := chromium.Launch(ctx, chromium.Options{Executable: opts.Executable, Headed: opts.Headed, Log: opts.Log, WebRTCUDP: sb.udp})
	if dead != nil {
		status := "ok"
		if err != nil {
			status = "failed"
		}
		if event != nil {
			event("runtime", "relaunch", status)
		}
		fmt.Fprintf(log, "fastbrowser: the browser died (%s); relaunch for the remaining scenarios: %s\n", dead.ExitStatus(), status)
	}
	if err != nil {
		// A launch cut short by its scenario's end says nothing about the next one.
		if ctx.Err() == nil {
			sb.err = err
		}
		return "", err
	}
	sb.browser = b
	return b.WebSocketURL(), nil
}

// noteCrash is runtime.Options.OnBrowserCrash for sessions in an attached browser.
func (sb *sharedBrowser) noteCrash() {
	sb.mu.Lock()
	sb.crashed = true
	sb.mu.Unlock()
}

// attachable refuses at once to open a session in an attached browser known to be gone.
func (sb *sharedBrowser) attachable() error {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	return sb.gone
}

// attachResult judges the outcome of opening a session in the attached browser: after a
// session found it dead, a refused open means it is gone for the rest of the run. An open
// that works (a browser service may hand out a fresh browser) clears the suspicion.
func (sb *sharedBrowser) attachResult(err error) error {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if err == nil {
		sb.crashed = false
		return nil
	}
	if !sb.crashed {
		return err
	}
	sb.gone = transport.NewError("", transport.PhaseDispatch, transport.CodeBrowserCrashed, transport.RetryNever, transport.NotAttempted,
		"the browser at --cdp-url died during an earlier scenario and refuses new sessions; fastbrowser did not launch it, so it does not relaunch it").WithCause(err)
	return sb.gone
}

func (sb *sharedBrowser) close() {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.browser != nil {
		_ = sb.browser.Close()
	}
}
