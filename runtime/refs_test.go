package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestRefBoundToTabAndDocument: a ref names one element of one document of one tab. Used on
// another tab, or on its own tab after the tab moved to a new document (and was observed
// again), it is refused stale_document with nothing attempted, and the server's click
// counters prove no element was clicked in its place.
func TestRefBoundToTabAndDocument(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	// Tab t2: /delete, whose first refs are its two Delete buttons and a link.
	popup := popupFrom(t, rt, site.URL+"/popup", "Open popup")
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{Tab: popup, URL: site.URL + "/delete"}); err != nil {
		t.Fatal(err)
	}
	other, err := transport.Dispatch(bg, rt, transport.Observe{Tab: popup})
	if err != nil {
		t.Fatal(err)
	}
	if findRef(other.Nodes, "button", "Delete") == "" {
		t.Fatalf("no Delete button on t2:\n%s", other.Text)
	}
	// Tab t1: /replace, observed after t2.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/replace"}); err != nil {
		t.Fatal(err)
	}
	here := observe(t, rt)
	nothing := findRef(here.Nodes, "button", "Do nothing")
	if nothing == "" {
		t.Fatalf("no Do nothing button:\n%s", here.Text)
	}
	// t1's refs on t2: refused, never resolved to whatever t2 holds under that name.
	for _, ref := range []string{nothing, findRef(here.Nodes, "button", "Continue")} {
		_, err := transport.Dispatch(bg, rt, transport.Act{Tab: popup, Action: transport.ActClick, Target: transport.Target{Ref: ref}})
		if oe := wantCode(t, err, transport.CodeStaleDocument, transport.NotAttempted); oe.Retry != transport.RetryNever {
			t.Errorf("retry %q", oe.Retry)
		}
	}
	// t2's ref on t1, likewise.
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: findRef(other.Nodes, "button", "Delete")}})
	wantCode(t, err, transport.CodeStaleDocument, transport.NotAttempted)
	// t1 moves to a new document of the same page and is observed again: the old refs are
	// stale, even though the new outline has the same buttons.
	if _, err := transport.Dispatch(bg, rt, transport.Reload{}); err != nil {
		t.Fatal(err)
	}
	again := observe(t, rt)
	if findRef(again.Nodes, "button", "Do nothing") == nothing {
		t.Fatalf("the new document reused ref %s", nothing)
	}
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: nothing}})
	wantCode(t, err, transport.CodeStaleDocument, transport.NotAttempted)
	// A ref never issued is not stale: it names nothing.
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: "e999999"}})
	wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	for page, n := range runtimetest.Clicks(t, site.URL) {
		if n != 0 {
			t.Errorf("the %s page counted %d clicks; no ref may reach another tab or document", page, n)
		}
	}
	// The current refs still work.
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: findRef(again.Nodes, "button", "Do nothing")}})
	if err != nil || res.MutationState != transport.Verified {
		t.Fatalf("current ref: %+v %v", res, err)
	}
}
