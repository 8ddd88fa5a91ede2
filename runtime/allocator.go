package runtime

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// Allocator is where sessions get their browser, and the one way a session's browser is
// launched (chromedp's allocators): it either launches a Chromium of its own on first use or
// attaches to one at a DevTools URL that is not its own. Any number of sessions may share one
// Allocator, each with its own worker and browser context; whoever made it closes it, and only
// a browser it launched is ever stopped.
//
// A launched browser that died (killed, crashed) is replaced for the sessions that follow:
// the next session to open reaps the dead one's process group, removes its profile and
// launches a new one while concurrent openers wait (one relaunch, not one per session). A
// launch that failed fails every later session at once, unless it was only cut short by its
// opener's context. An attached browser is not ours to relaunch: once a session found it dead
// and it then refuses a new session, every later session is refused at once saying so.
type Allocator struct {
	launch *chromium.Options // nil: attach to cdpURL
	cdpURL string

	mu      sync.Mutex
	browser *chromium.Browser // launched: the current browser, nil before the first open
	err     error             // launched: a launch failed; every later session fails with it

	crashed bool  // attached: a session found the browser dead
	gone    error // attached: it died and refused the next session
	closed  bool  // Close ran: no session opens here again (nothing would stop its browser)
}

// NewLaunchAllocator launches Chromium with opts when the first session opens (so a run
// whose fixtures never come up never starts a browser). Close stops it.
func NewLaunchAllocator(opts chromium.Options) *Allocator {
	return &Allocator{launch: &opts}
}

// NewAttachAllocator attaches sessions to the browser at cdpURL (http://host:port or
// a browser websocket URL), which it never stops or relaunches.
func NewAttachAllocator(cdpURL string) *Allocator {
	return &Allocator{cdpURL: cdpURL}
}

// Attached reports whether the allocator's browser is not its own (it attaches, never
// launches).
func (a *Allocator) Attached() bool { return a.launch == nil }

// onThisMachine reports whether the allocator's browser runs on this machine: one it
// launches always does; an attached one does at a loopback endpoint.
func (a *Allocator) onThisMachine() bool { return a.launch != nil || loopbackEndpoint(a.cdpURL) }

// Relaunch tells a session's opener that opening it replaced the allocator's dead browser.
type Relaunch struct {
	Died    string // how the dead browser ended ("signal killed")
	Cleanup error  // the dead browser's process group or profile could not be cleaned up
	Err     error  // the new launch failed (nil: the session runs in the new browser)
}

// acquire returns the launched browser a new session's worker is to reach through its gate,
// or, attached, the DevTools URL it attaches to (and a nil browser). A launch, first or after a death, happens here,
// under the lock, and onRelaunch (when set) hears of a relaunch. Errors are operation errors.
func (a *Allocator) acquire(ctx context.Context, onRelaunch func(Relaunch)) (string, *chromium.Browser, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return "", nil, transport.NewError("", transport.PhaseDispatch, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the browser allocator is closed")
	}
	if a.launch == nil {
		if a.gone != nil {
			return "", nil, a.gone
		}
		return a.cdpURL, nil, nil
	}
	if a.err != nil {
		return "", nil, launchFailed(a.err)
	}
	if a.browser != nil && !a.browser.Exited() {
		return "", a.browser, nil
	}
	dead := a.browser
	var cleanup error
	if dead != nil {
		a.browser = nil
		cleanup = dead.Close()
	}
	b, err := chromium.Launch(ctx, *a.launch)
	if dead != nil && onRelaunch != nil {
		onRelaunch(Relaunch{Died: dead.ExitStatus(), Cleanup: cleanup, Err: err})
	}
	if err != nil {
		// A launch cut short by its opener's end says nothing about the next one.
		if ctx.Err() == nil {
			a.err = err
		}
		return "", nil, launchFailed(err)
	}
	a.browser = b
	return "", b, nil
}

// launchFailed is the session error for a browser that could not be launched.
func launchFailed(err error) error {
	var le *chromium.LaunchError
	msg := "the browser could not be started"
	if errors.As(err, &le) {
		msg = le.Reason
	}
	return transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "%s", msg).WithCause(err)
}

// noteCrash records that a session found the browser dead (a call failed browser_crashed).
func (a *Allocator) noteCrash() {
	a.mu.Lock()
	a.crashed = true
	a.mu.Unlock()
}

// opened judges the outcome of opening a session: in an attached browser a session found
// dead, a refused open means it is gone for good. An open that works (a browser service may
// hand out a fresh browser) clears the suspicion.
func (a *Allocator) opened(err error) error {
	if a.launch != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err == nil {
		a.crashed = false
		return nil
	}
	if !a.crashed {
		return err
	}
	a.gone = transport.NewError("", transport.PhaseDispatch, transport.CodeBrowserCrashed, transport.RetryNever, transport.NotAttempted,
		"the browser at --cdp-url died during an earlier scenario and refuses new sessions; fastbrowser did not launch it, so it does not relaunch it").WithCause(err)
	return a.gone
}

// Close stops a launched browser and removes its profile; an attached browser is left as it
// is. Sessions still open in it fail browser_crashed, and no session opens after it
// (session_ended): a browser launched then would have no one to stop it.
func (a *Allocator) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.browser == nil {
		return nil
	}
	return a.browser.Close()
}

// ownAllocator is the browser of a session opened without an Allocator: attached at
// opts.CDPURL, or launched for the session alone (WebRTC's UDP on only where webrtcUDP says;
// over opts.Profile behind px, the proxy started first for it, when there is one).
func ownAllocator(base policy.Policy, opts Options, px *egressproxy.Proxy) *Allocator {
	if opts.CDPURL != "" {
		return NewAttachAllocator(opts.CDPURL)
	}
	launch := LaunchOptions(opts, webrtcUDP(base, opts))
	if opts.Profile != "" {
		launch = withProfile(launch, opts.Profile, px)
	}
	return NewLaunchAllocator(launch)
}

// LaunchOptions is how a browser for sessions with opts is launched (its executable, window
// and log), with WebRTC's UDP on or off.
// With opts.TLS the browser accepts that trust's interception CA (tlstrust.go).
func LaunchOptions(opts Options, webrtcUDP bool) chromium.Options {
	launch := chromium.Options{Executable: opts.Executable, Headed: opts.Headed, Log: opts.Log, WebRTCUDP: webrtcUDP}
	if opts.TLS != nil {
		launch.ExtraArgs = append(launch.ExtraArgs, opts.TLS.spkiFlag())
	}
	return launch
}

// trusts reports whether the allocator's browser is launched accepting t's interception CA.
func (a *Allocator) trusts(t *TLSTrust) bool {
	return a.launch != nil && slices.Contains(a.launch.ExtraArgs, t.spkiFlag())
}

// NeedsWebRTCUDP reports whether a session with opts needs a browser whose WebRTC UDP is on:
// it allows WebRTC under the "*" policy (every other browser fastbrowser launches has it off).
func NeedsWebRTCUDP(opts Options) bool {
	base := policy.AllowAll()
	if len(opts.AllowedOrigins) > 0 {
		p, err := policy.Parse(opts.AllowedOrigins)
		if err != nil {
			return false // Open refuses these origins anyway
		}
		base = p
	}
	return webrtcUDP(base, opts)
}
