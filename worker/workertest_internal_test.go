package worker

import (
	"context"
	"io"
	"log"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// workerOn connects a worker (base "*") to the package's shared browser, navigates its first
// tab to pageURL, and tears it down when the test ends. In-package tests use it to reach
// what the protocol does not show (a frame's session, a forced read path).
func workerOn(t *testing.T, pageURL string) (context.Context, *Worker, *tab) {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	w := newWorker(log.New(io.Discard, "", 0), policy.AllowAll())
	if err := w.connect(ctx, Options{CDPURL: b.WebSocketURL()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.teardown)
	if _, err := w.navigate(ctx, &transport.Navigate{URL: pageURL}, w.base); err != nil {
		t.Fatal(err)
	}
	tb, err := w.tabFor(transport.OpObserve, "")
	if err != nil {
		t.Fatal(err)
	}
	return ctx, w, tb
}
