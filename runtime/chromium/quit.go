package chromium

import (
	"context"
	"time"
)

// quit asks the browser to close (DevTools Browser.close) and waits at most grace for it to
// end. A browser on a persistent profile gets this before its group is stopped: closed so,
// it writes its cookie store and storage out. Measured on Chromium 156, for a persistent
// cookie and a localStorage entry set just before Close: the group's SIGTERM lost both, and
// SIGTERM to the browser process alone still lost the cookie.
func (b *Browser) quit(grace time.Duration) {
	select {
	case <-b.proc.Done():
		return // already gone
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	// The browser may close the pipe before it answers: the wait below is what counts.
	_, _ = b.gate.Call(ctx, "Browser.close", nil)
	select {
	case <-b.proc.Done():
	case <-ctx.Done():
	}
}
