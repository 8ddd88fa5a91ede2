package runtime_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestOpenerKeepsFocus: a page that opened a popup is still the visible, focused page when it
// is clicked again, as every page is under Playwright (focus emulation). Without it the
// popup's window hid the opener, whose renderer stopped drawing, and the next click waited
// 5 s for Chromium to give up on the input's acknowledgement before the page saw it.
func TestOpenerKeepsFocus(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	popupFrom(t, rt, site.URL+"/popup", "Open popup")
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Open popup")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.WaitPopup{}); err != nil {
		t.Fatal(err)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rd.Text, "Visibility at the last click: visible") {
		t.Fatalf("the opener was hidden behind its popup:\n%s", rd.Text)
	}
}
