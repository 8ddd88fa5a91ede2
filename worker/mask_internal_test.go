package worker

import (
	"net/url"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestMaskFailsClosedOnUninspectedFrame: masking reads every frame on the page; a frame it
// cannot look into (here: a cross-site frame whose session the worker is made to forget, as
// when its attach failed and it stays paused) makes the proof not proven and keeps no
// screenshot, where the same page with the frame's session is proven.
func TestMaskFailsClosedOnUninspectedFrame(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	framed := strings.Replace(site.URL, "127.0.0.1", "localhost", 1)
	ctx, w, tb := workerOn(t, site.URL+"/xframe?inner="+url.QueryEscape(framed))
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
