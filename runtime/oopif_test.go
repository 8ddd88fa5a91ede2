package runtime_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// crossSite is the fixture's /xframe page on site, framing the same fixture server under the
// name localhost: another site, so Chromium runs the frame in a renderer of its own.
func crossSite(site string) (page, framed string) {
	framed = strings.Replace(site, "127.0.0.1", "localhost", 1)
	return site + "/xframe?inner=" + url.QueryEscape(framed), framed
}

// TestActInOutOfProcessFrame: observe reads a cross-site frame's content under its
// <iframe>; act types into it by role and name and clicks in it by ref; the frame's own
// echo and the server's click counter prove where the input landed.
func TestActInOutOfProcessFrame(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	page, framed := crossSite(site.URL)
	rt := runtimetest.Open(t, site.URL, framed)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	ob := observe(t, rt)
	for _, want := range []string{`iframe "Payment"`, `  textbox [e`, `  password [e`, `  button [e`} {
		if !strings.Contains(ob.Text, want) {
			t.Fatalf("outline lacks %q from the cross-site frame:\n%s", want, ob.Text)
		}
	}
	pay := findRef(ob.Nodes, "button", "Pay")
	if pay == "" {
		t.Fatalf("no ref for the frame's Pay button:\n%s", ob.Text)
	}
	typed, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Card number")}, Text: transport.Literal("4111-2222")})
	if err != nil || typed.MutationState != transport.Verified {
		t.Fatalf("type into the frame: %+v %v", typed, err)
	}
	clicked, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: pay}})
	if err != nil || clicked.MutationState != transport.Verified {
		t.Fatalf("click in the frame: %+v %v", clicked, err)
	}
	// The frame shows what was typed and, once the server counted the click, "Paid".
	deadline := time.Now().Add(10 * time.Second)
	for {
		ob = observe(t, rt)
		if strings.Contains(ob.Text, "4111-2222") && strings.Contains(ob.Text, "Paid") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the frame does not show the typed text and the click:\n%s", ob.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if n := runtimetest.Clicks(t, site.URL)["framed"]; n != 1 {
		t.Fatalf("the frame's Pay counted %d clicks, want 1", n)
	}
	// The ref still names the same element on the next observe of the same document.
	if findRef(ob.Nodes, "button", "Pay") != pay {
		t.Errorf("the frame's button changed ref in the same document")
	}
}

// TestRedactionInOutOfProcessFrame: a secret typed into a cross-site frame's text and
// password fields, and echoed by the frame in large text at a fixed place, is masked in the
// failure screenshot: the proof counts the frame's matches, and the screenshot's pixels where
// the echo is are the mask's black.
func TestRedactionInOutOfProcessFrame(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	page, framed := crossSite(site.URL)
	rt, store := openWithEvidenceOrigins(t, []string{site.URL, framed}, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	// A password field is always masked, typed into or not: the frame's PIN field is at
	// (340, 240) in the page, 202 by 32 px with its border.
	shot := evidencePNG(t, store, failAssert(t, rt))
	for _, p := range [][2]int{{350, 250}, {440, 256}, {530, 262}} {
		if c := rgbAt(shot, p[0], p[1]); c != [3]uint8{0, 0, 0} {
			t.Errorf("pixel %v over the frame's password field is %v, not masked", p, c)
		}
	}
	for _, field := range []transport.Target{{Role: "textbox", Name: transport.Match("Card PIN")}, {Role: "textbox", Name: transport.Match("Card number")}} {
		if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: field, Text: transport.FromEnv("PORTAL_TOKEN")}); err != nil {
			t.Fatalf("type into %s: %v", field.Name, err)
		}
	}
	shot = evidencePNG(t, store, failAssert(t, rt))
	// The echo starts at (60, 320) in the page (frame at 40,120; echo at 20,200 in it), one
	// 32 px line of the 16-character secret in monospace: every sample on its middle line is
	// the mask's black, where unmasked it is the frame's white or the text's blue.
	for _, x := range []int{64, 120, 200, 280, 340} {
		if c := rgbAt(shot, x, 338); c != [3]uint8{0, 0, 0} {
			t.Errorf("pixel (%d, 338) over the frame's echoed secret is %v, not masked", x, c)
		}
	}
	sweep(t, store.Root())
}

// failAssert fails an assertion, which captures failure evidence, and returns the error.
func failAssert(t *testing.T, rt transport.Caller) error {
	t.Helper()
	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "never this title", Wait: "none"})
	oe := transport.AsOperationError("", err)
	if oe == nil || oe.Code != transport.CodeAssertionFailed {
		t.Fatalf("error %v, want assertion_failed", err)
	}
	return err
}
