package chromium

import (
	"context"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/rpcc"
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
	conn, err := rpcc.DialContext(ctx, b.wsURL)
	if err != nil {
		return
	}
	defer conn.Close()
	// The browser may drop the connection before it answers: the wait below is what counts.
	_ = cdp.NewClient(conn).Browser.Close(ctx)
	select {
	case <-b.proc.Done():
	case <-ctx.Done():
	}
}
