package runtime_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestActWaitsForTheNavigationItStarted: a click on a form's submit button whose target
// answers after 1.5 s returns once that page has committed and loaded — a read right after
// sees it, and a navigate right after does not cut it short (before, the act returned at
// once and the navigate that followed failed net::ERR_ABORTED when the submit started after
// it). So does a handler that navigates a task after the click.
func TestActWaitsForTheNavigationItStarted(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	for _, button := range []string{"Send", "Go later"} {
		nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/slow-form"})
		if err != nil {
			t.Fatal(err)
		}
		act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("button", button)})
		if err != nil {
			t.Fatalf("%s: %v", button, err)
		}
		if act.DocumentID == nav.DocumentID {
			t.Errorf("%s: the act's documentId is the form's: it returned before the new document", button)
		}
		rd, err := transport.Dispatch(bg, rt, transport.Read{})
		if err != nil || rd.Title != "Slow" || !strings.Contains(rd.Text, "Slow page loaded") || rd.DocumentID != act.DocumentID {
			t.Fatalf("%s: read right after the act: %v %+v; want the loaded slow page", button, err, rd)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"}); err != nil {
			t.Fatalf("%s: navigate right after the act: %v", button, err)
		}
	}
}

// TestActNavigationsThatDoNotLoad: a link to a 204 starts a navigation that never commits,
// and a link to a fragment commits in the same document: each act returns without error and
// the page is the form's.
func TestActNavigationsThatDoNotLoad(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/slow-form"})
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"No content", "Same page"} {
		act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("link", link)})
		if err != nil || act.DocumentID != nav.DocumentID {
			t.Fatalf("%s: %v %+v; want the form's document %s", link, err, act, nav.DocumentID)
		}
	}
	if rd, err := transport.Dispatch(bg, rt, transport.Read{}); err != nil || rd.URL != nav.URL+"#/here" {
		t.Fatalf("read: %v %+v", err, rd)
	}
}

// TestActNoWaitAfter: with noWaitAfter the act returns once its input is dispatched; only its
// success is asserted (when it returns relative to the page is not).
func TestActNoWaitAfter(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/slow-form"}); err != nil {
		t.Fatal(err)
	}
	act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("button", "Send"), NoWaitAfter: true})
	if err != nil || act.Receipt.Action != transport.ActClick {
		t.Fatalf("act noWaitAfter: %v %+v", err, act)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "Slow"}); err != nil {
		t.Fatalf("the slow page never came: %v", err)
	}
}
