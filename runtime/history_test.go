package runtime_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestGoBackAndForwardAcrossDocuments: navigate A → B, goBack is A again (its URL, title, a
// new document), goForward is B.
func TestGoBackAndForwardAcrossDocuments(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	a, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"})
	if err != nil {
		t.Fatal(err)
	}
	back, err := transport.Dispatch(bg, rt, transport.GoBack{})
	if err != nil {
		t.Fatal(err)
	}
	// A history step may restore the very document it left (the back/forward cache keeps
	// it whole), so the document id is not compared with A's: only that it is not B's.
	if back.URL != a.URL || back.Title != a.Title || back.Status != 200 || back.DocumentID == b.DocumentID {
		t.Fatalf("goBack: %+v; want %s %q, status 200, not B's document (%s)", back, a.URL, a.Title, b.DocumentID)
	}
	if rd, err := transport.Dispatch(bg, rt, transport.Read{}); err != nil || !strings.Contains(rd.Text, "served by fastbrowser fixture serve") {
		t.Fatalf("read after goBack: %v %q", err, rd.Text)
	}
	fwd, err := transport.Dispatch(bg, rt, transport.GoForward{})
	if err != nil {
		t.Fatal(err)
	}
	if fwd.URL != b.URL || fwd.Title != b.Title || fwd.DocumentID == back.DocumentID {
		t.Fatalf("goForward: %+v; want %s %q", fwd, b.URL, b.Title)
	}
}

// TestGoBackWithNothingThere: the first page of a tab has nothing behind it and nothing
// ahead: navigation_failed, nothing attempted, the page as it was.
func TestGoBackWithNothingThere(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = transport.Dispatch(bg, rt, transport.GoBack{})
	oe := wantCode(t, err, transport.CodeNavigationFailed, transport.NotAttempted)
	if !strings.Contains(oe.Message, "no history entry to go back to") {
		t.Errorf("goBack: message %q", oe.Message)
	}
	_, err = transport.Dispatch(bg, rt, transport.GoForward{})
	oe = wantCode(t, err, transport.CodeNavigationFailed, transport.NotAttempted)
	if !strings.Contains(oe.Message, "no history entry to go forward to") {
		t.Errorf("goForward: message %q", oe.Message)
	}
	if rd, err := transport.Dispatch(bg, rt, transport.Read{}); err != nil || rd.URL != nav.URL || rd.DocumentID != nav.DocumentID {
		t.Fatalf("after the refusals: %v %+v, want the same document at %s", err, rd, nav.URL)
	}
}

// TestGoBackIntoARefusedOrigin: the entry behind is on an origin the (narrowed) policy does
// not allow: origin_denied before anything is done — the other origin never hears of it.
func TestGoBackIntoARefusedOrigin(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	rt := runtimetest.Open(t, site.URL, srv.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: srv.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := transport.Dispatch(bg, rt, transport.NarrowOriginPolicy{Origins: []string{site.URL}})
	if err != nil {
		t.Fatal(err)
	}
	hits := canary.Hits()
	_, err = transport.Dispatch(bg, rt, transport.GoBack{}, &narrow.Context)
	oe := wantCode(t, err, transport.CodeOriginDenied, transport.NotAttempted)
	if oe.Phase != transport.PhasePolicy || !strings.Contains(oe.Message, "not in the allowed origins") {
		t.Errorf("goBack: %v, phase %s", err, oe.Phase)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{}, &narrow.Context)
	if err != nil || rd.URL != nav.URL || rd.DocumentID != nav.DocumentID {
		t.Fatalf("after the refusal: %v %+v, want the same document at %s", err, rd, nav.URL)
	}
	if canary.Hits() != hits {
		t.Errorf("the refused origin got %d requests", canary.Hits()-hits)
	}
	// Without the narrowing, the same entry is allowed.
	if back, err := transport.Dispatch(bg, rt, transport.GoBack{}); err != nil || back.Title != "Canary" {
		t.Fatalf("goBack under the session's policy: %v %+v", err, back)
	}
}

// TestGoBackInAHashRoutedApp: the routes of a hash-routed app are entries of one document:
// back and forward commit without a load, and the app renders the route it lands on.
func TestGoBackInAHashRoutedApp(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/hash-app"})
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"A", "B"} {
		if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("link", "Route "+route)}); err != nil {
			t.Fatal(err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Showing route " + route}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(op string, res transport.NavigateResult, err error, hash, text string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if res.URL != nav.URL+hash || res.DocumentID != nav.DocumentID || res.Title != "Hash app" {
			t.Fatalf("%s: %+v; want %s%s in the same document %s", op, res, nav.URL, hash, nav.DocumentID)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: text}); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
	}
	back, err := transport.Dispatch(bg, rt, transport.GoBack{})
	check("goBack", back, err, "#/a", "Showing route A")
	back, err = transport.Dispatch(bg, rt, transport.GoBack{})
	check("goBack again", back, err, "", "Showing the start route")
	fwd, err := transport.Dispatch(bg, rt, transport.GoForward{})
	check("goForward", fwd, err, "#/a", "Showing route A")
	fwd, err = transport.Dispatch(bg, rt, transport.GoForward{})
	check("goForward again", fwd, err, "#/b", "Showing route B")
}
