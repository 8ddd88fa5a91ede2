package runtime_test

import (
	"context"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestViewport: a session's viewport lays out its first tab and a popup it opens at that
// size; a size outside the bounds is refused before anything starts.
func TestViewport(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Viewport: transport.Viewport{Width: 1024, Height: 640}})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/viewport"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "size: 1024x640"}); err != nil {
		t.Fatalf("first tab: %v", err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Open another")}}); err != nil {
		t.Fatal(err)
	}
	popup, err := transport.Dispatch(bg, rt, transport.WaitPopup{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Tab: popup.Popup, Kind: transport.AssertTextContains, Value: "size: 1024x640"}); err != nil {
		t.Fatalf("popup: %v", err)
	}

	_, err = runtime.Open(context.Background(), runtime.Options{CDPURL: b.WebSocketURL(), Viewport: transport.Viewport{Width: 50, Height: 640}})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeInvalidRequest || oe.Path != "viewport" {
		t.Fatalf("a 50-pixel-wide viewport: %v", err)
	}
}
