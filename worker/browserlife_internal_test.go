package worker

import (
	"context"
	"errors"
	"io"
	"log"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// TestClosedSocketIsConfirmedOnTheBrowserConnection drives diedDuring against a real
// Chromium: a closed-socket error (what a closed tab and a dead browser both give) means a
// dead browser only once the browser connection says so, including in the moment right
// after the kill, before the watcher has noticed.
func TestClosedSocketIsConfirmedOnTheBrowserConnection(t *testing.T) {
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	w := newWorker(log.New(io.Discard, "", 0), policy.AllowAll())
	if w.mux, w.bconn, w.bc, err = dialMux(ctx, b.WebSocketURL()); err != nil {
		t.Fatal(err)
	}
	w.watchBrowser()
	defer w.bconn.Close()

	// rpcc's error for a socket that has closed, taken from a connection of our own.
	_, other, oc, err := dialMux(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	_ = other.Close()
	_, closedErr := oc.Browser.GetVersion(ctx)
	if !connClosed(closedErr) {
		t.Fatalf("not a closed-socket error: %v", closedErr)
	}

	if w.diedDuring(closedErr) || w.life.isDead() {
		t.Fatal("a closed socket was taken for a dead browser while the browser lives")
	}
	if w.diedDuring(errors.New("some other failure")) {
		t.Fatal("an unrelated error was taken for a dead browser")
	}

	if err := syscall.Kill(b.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !w.diedDuring(closedErr) || !w.life.isDead() {
		t.Fatal("a closed socket after the browser died was not taken for its death")
	}
	oe := transport.AsOperationError("", w.browserGone(transport.OpRead))
	if oe == nil || oe.Code != transport.CodeBrowserCrashed || oe.MutationState != transport.NotAttempted || oe.Retry != transport.RetryNever {
		t.Fatalf("a call after the death: %+v", oe)
	}
	if w.browserGone(transport.OpClose) != nil {
		t.Fatal("close must still be answered after the browser died")
	}
	inFlight := transport.NewError(transport.OpNavigate, transport.PhaseExecute, transport.CodeTabNotFound, transport.RetryNever, transport.Unknown, "x").WithCause(closedErr)
	_, err = w.blameBrowser(&transport.Navigate{URL: "http://127.0.0.1/"}, nil, inFlight)
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeBrowserCrashed || oe.MutationState != transport.Unknown || oe.Retry != transport.RetryNever {
		t.Fatalf("a navigate in flight: %+v", oe)
	}
	readErr := transport.NewError(transport.OpRead, transport.PhaseExecute, transport.CodeInternal, transport.RetryUnsafe, transport.Unknown, "x")
	_, err = w.blameBrowser(&transport.Read{}, nil, readErr)
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeBrowserCrashed || oe.MutationState != transport.NotAttempted {
		t.Fatalf("a read in flight: %+v", oe)
	}
}
