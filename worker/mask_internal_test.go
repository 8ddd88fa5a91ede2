package worker

import (
	"context"
	"io"
	"log"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestMaskFailsClosedOnUninspectedFrame: masking reads every frame on the page; a frame it
// cannot look into (here: a cross-site frame whose session the worker is made to forget, as
// when its attach failed and it stays paused) makes the proof not proven and keeps no
// screenshot, where the same page with the frame's session is proven.
func TestMaskFailsClosedOnUninspectedFrame(t *testing.T) {
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	site := runtimetest.Fixture()
	defer site.Close()
	framed := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w := newWorker(log.New(io.Discard, "", 0), policy.AllowAll())
	if err := w.connect(ctx, b.WebSocketURL()); err != nil {
		t.Fatal(err)
	}
	defer w.teardown()
	if _, err := w.navigate(ctx, &transport.Navigate{URL: site.URL + "/xframe?inner=" + url.QueryEscape(framed)}, w.base); err != nil {
		t.Fatal(err)
	}
	tb, err := w.tabFor(transport.OpObserve, "")
	if err != nil {
		t.Fatal(err)
	}
	proof, shot, err := w.screenshot(ctx, tb, nil)
	if err != nil || !proof.Proven || len(shot) == 0 || proof.FramesUninspected != 0 || proof.Matched == 0 {
		t.Fatalf("with the frame's session: proof %+v, %d bytes, %v", proof, len(shot), err)
	}
	frames := tb.oopifs()
	if len(frames) != 1 {
		t.Fatalf("%d out-of-process frames, want 1", len(frames))
	}
	tb.dropFrame(frames[0])
	proof, shot, err = w.screenshot(ctx, tb, nil)
	if err != nil || proof.Proven || shot != nil || proof.FramesUninspected != 1 {
		t.Fatalf("without it: proof %+v, %d bytes, %v; want not proven, one frame uninspected", proof, len(shot), err)
	}
}
