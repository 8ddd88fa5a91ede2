package chromium

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/internal/cdpgate"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

// Browser is a running Chromium owned by the caller, who must Close it. It listens on no
// port: its DevTools pipe is its gate's (runtime/internal/cdpgate), and clients come in through Serve,
// Dial or, for someone attaching on purpose, WebSocketURL.
type Browser struct {
	proc    *process.Process
	pipe    *devtoolsPipe
	gate    *cdpgate.Gate
	product string // Browser.getVersion's product ("Chrome/156.0.8078.73")
	udpOff  bool   // launched without Options.WebRTCUDP
	profile string
	// temporary: the profile is the launcher's own, removed once the browser is gone
	// (false: Options.UserDataDir, which is never removed).
	temporary bool

	closeOnce sync.Once
	closeErr  error
}

// Serve gives a worker its way to the browser: f is one end of a cdpgate.Socketpair (the
// worker has the other as a file descriptor), through which it gets a browser session of
// its own. Serve owns f from the call on.
func (b *Browser) Serve(ctx context.Context, f *os.File) error { return b.gate.Serve(ctx, f) }

// Dial connects a DevTools client in this process (rpcc.WithDialer and a JSON codec over the
// returned stream) with a browser session of its own.
func (b *Browser) Dial(ctx context.Context) (io.ReadWriteCloser, error) { return b.gate.Dial(ctx) }

// WebSocketURL is the browser's endpoint for a person or a program attaching on purpose
// (`session open`'s cdp_url, a --worker command, tests): ws://127.0.0.1:PORT/devtools/browser/
// TOKEN, answering only with the token and, on Linux, only this user's connections
// (cdpgate.Gate.WebSocketURL). Nothing listens until the first call; "" if it could not
// listen (the reason went to Options.Log).
func (b *Browser) WebSocketURL() string {
	url, err := b.gate.WebSocketURL()
	if err != nil {
		b.gate.Note(fmt.Sprintf("chromium: no websocket endpoint: %v", err))
		return ""
	}
	return url
}

// NextAttach is closed when a client next attaches through WebSocketURL's endpoint (a
// person or a program on purpose; cdpgate.Gate.NextAttach).
func (b *Browser) NextAttach() <-chan struct{} { return b.gate.NextAttach() }

// Product is the browser's product string, "Chrome/156.0.8078.73".
func (b *Browser) Product() string { return b.product }

// WebRTCUDPOff reports whether the browser was launched with WebRTC's UDP off (the profile
// sends WebRTC's TCP through each context's proxy; see prefs.go).
func (b *Browser) WebRTCUDPOff() bool { return b.udpOff }

// ProfileDir is the browser's temporary profile, which Close removes; "" for a persistent
// one (Options.UserDataDir), which nothing may remove.
func (b *Browser) ProfileDir() string {
	if !b.temporary {
		return ""
	}
	return b.profile
}

// Pid is the browser process's id (the leader of its process group).
func (b *Browser) Pid() int { return b.proc.Pid() }

// Done is closed when the browser process has been reaped, whether by Close or because it
// died on its own.
func (b *Browser) Done() <-chan struct{} { return b.proc.Done() }

// Close stops the browser's process group (SIGTERM, then SIGKILL after
// budgets.ProcessStopGrace().Default) and removes a temporary profile once the browser is
// reaped. A browser on a persistent profile is first asked to close (quit, within the same
// grace again), so its data is written. It is idempotent and safe for concurrent use; every
// call returns the first call's result.
func (b *Browser) Close() error {
	b.closeOnce.Do(func() {
		grace := budgets.ProcessStopGrace().Default
		b.closeErr = b.teardown(func() error {
			if !b.temporary {
				b.quit(grace) // its data is written before the group is stopped
			}
			return b.proc.Stop(grace)
		})
	})
	return b.closeErr
}

// teardown stops the process with stop and then removes a temporary profile (dropProfile).
// If the browser could not be reaped it may still be writing there, so the profile is left
// (findable by its name) rather than half removed under a live process.
func (b *Browser) teardown(stop func() error) error {
	untrack(b)
	err := stop()
	b.gate.Close()
	b.pipe.close()
	if err != nil {
		return fmt.Errorf("chromium: stop pid %d (profile %s left in place): %w", b.Pid(), b.profile, err)
	}
	return dropProfile(b.profile, b.temporary)
}

func removeProfile(dir string) error {
	removeSingletonDir(dir)
	if os.RemoveAll(dir) == nil {
		untrackProfile(dir)
		return nil
	}
	// One retry: a just-killed helper process may have finished a write into the profile
	// while the first pass walked it.
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("chromium: remove profile: %w", err)
	}
	untrackProfile(dir)
	return nil
}

// RemoveProfile removes a stopped browser's profile and the singleton directory its
// SingletonSocket link names, as Close does for a launched browser's (for a browser started
// some other way, such as a test's plain Chromium).
func RemoveProfile(dir string) error { return removeProfile(dir) }

// HTTPURL is WebSocketURL's DevTools HTTP endpoint, http://127.0.0.1:PORT/TOKEN (it answers
// /json/version only); "" if there is no websocket endpoint.
func (b *Browser) HTTPURL() string {
	if b.WebSocketURL() == "" {
		return ""
	}
	url, err := b.gate.HTTPURL()
	if err != nil {
		return ""
	}
	return url
}
