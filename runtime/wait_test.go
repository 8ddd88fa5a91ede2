package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The wait operation against real Chromium. /wait-states reaches DOMContentLoaded, load and
// networkidle each well apart (a parser-blocking script, a slow image, a fetch after load),
// and each step checks, with a single read that does not wait, the page's own mark of the
// state waited for: had the wait returned early, the mark would not be there yet.

// TestWaitLoadStates: on a loaded page load answers at once (same document); networkidle
// waits for the fetch after load; after a click that does not wait for its navigation,
// domcontentloaded and load each wait for the new document's own event.
func TestWaitLoadStates(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/wait-states"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := transport.Dispatch(bg, rt, transport.Wait{LoadState: transport.LoadStateLoad})
	if err != nil || w.URL != nav.URL || w.DocumentID != nav.DocumentID || w.Tab == "" {
		t.Fatalf("wait load on a loaded page: %v %+v, want %s %s", err, w, nav.URL, nav.DocumentID)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Wait{LoadState: transport.LoadStateNetworkIdle}); err != nil {
		t.Fatalf("wait networkidle: %v", err)
	}
	assertOnce(t, rt, transport.AssertTextContains, "Fetched after load")

	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("link", "Again"), NoWaitAfter: true}); err != nil {
		t.Fatal(err)
	}
	// The new document has committed once its URL reads so (it is still parsing: the
	// blocking script takes 800 ms).
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertURL, Value: site.URL + "/wait-states?run=2"}); err != nil {
		t.Fatal(err)
	}
	dcl, err := transport.Dispatch(bg, rt, transport.Wait{LoadState: transport.LoadStateDOMContentLoaded})
	if err != nil || dcl.URL != site.URL+"/wait-states?run=2" || dcl.DocumentID == nav.DocumentID {
		t.Fatalf("wait domcontentloaded: %v %+v, want the new document", err, dcl)
	}
	assertOnce(t, rt, transport.AssertTextContains, "DOM ready")
	if _, err := transport.Dispatch(bg, rt, transport.Wait{LoadState: transport.LoadStateLoad}); err != nil {
		t.Fatalf("wait load: %v", err)
	}
	assertOnce(t, rt, transport.AssertTitle, "Loaded")
}

// TestWaitLoadStateTimeout: a page that fetches every 100 ms never has 500 ms without a
// request: networkidle runs out of its timeoutMs with code timeout, saying what it waited for
// and what the page had (its URL without the query, and load reached), nothing attempted.
func TestWaitLoadStateTimeout(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/wait-states?poll=1"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Wait{LoadState: transport.LoadStateNetworkIdle, TimeoutMs: 1500})
	oe := wantCode(t, err, transport.CodeTimeout, transport.NotAttempted)
	for _, want := range []string{"the wait's timeoutMs (1.5s)", "the load state networkidle", `"` + site.URL + `/wait-states"`, "reached load"} {
		if !strings.Contains(oe.Message, want) {
			t.Errorf("message %q lacks %q", oe.Message, want)
		}
	}
	if strings.Contains(oe.Message, "poll=1") || oe.Operation != transport.OpWait || oe.Retry != transport.RetrySafe {
		t.Errorf("error %+v: the query quoted, or not a safe-to-retry wait", oe)
	}
}

// TestWaitURL: an exact URL, a glob and a regex each wait for a navigation a click started
// without waiting, and return once the new document has loaded; a hash change (no new
// document) matches too; a URL that never comes times out naming the pattern and the page.
func TestWaitURL(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	forms := []struct {
		name string
		url  *transport.ValueMatch
	}{
		{"exact", transport.Is(site.URL + "/wait-states?run=2")},
		{"glob", transport.Is("**/wait-states?run=*")},
		{"regex", transport.Like(`/wait-states\?run=\d$`, "")},
	}
	for _, f := range forms {
		if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/wait-states"}); err != nil {
			t.Fatal(err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("link", "Again"), NoWaitAfter: true}); err != nil {
			t.Fatal(err)
		}
		w, err := transport.Dispatch(bg, rt, transport.Wait{URL: f.url})
		if err != nil || w.URL != site.URL+"/wait-states?run=2" {
			t.Fatalf("%s: wait url: %v %+v", f.name, err, w)
		}
		assertOnce(t, rt, transport.AssertTitle, "Loaded") // load, waitForURL's default waitUntil
	}

	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/hash-app"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: *role("link", "Route B"), NoWaitAfter: true}); err != nil {
		t.Fatal(err)
	}
	if w, err := transport.Dispatch(bg, rt, transport.Wait{URL: transport.Is("**/hash-app#/b")}); err != nil || w.URL != site.URL+"/hash-app#/b" {
		t.Fatalf("wait url after a hash change: %v %+v", err, w)
	}

	_, err := transport.Dispatch(bg, rt, transport.Wait{URL: transport.Is("**/orders"), TimeoutMs: 500})
	oe := wantCode(t, err, transport.CodeTimeout, transport.NotAttempted)
	for _, want := range []string{`the URL to match "**/orders"`, `"` + site.URL + `/hash-app"`, "reached"} {
		if !strings.Contains(oe.Message, want) {
			t.Errorf("message %q lacks %q", oe.Message, want)
		}
	}
}

// TestWaitDuration: durationMs waits that long whatever the page does: the text the page
// writes 800 ms after its load is there after a 1500 ms wait.
func TestWaitDuration(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/delayed-text"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := transport.Dispatch(bg, rt, transport.Wait{DurationMs: 1500})
	if err != nil || w.DocumentID != nav.DocumentID {
		t.Fatalf("wait durationMs: %v %+v", err, w)
	}
	assertOnce(t, rt, transport.AssertTextContains, "Appeared later")
}

// TestWaitRefusesMalformed: exactly one of loadState, url and durationMs, each checked, with
// the field's path; over the ceiling is budget_exceeded. Nothing reaches the browser.
func TestWaitRefusesMalformed(t *testing.T) {
	cases := []struct {
		name string
		req  transport.Wait
		code transport.Code
		path string
	}{
		{"none", transport.Wait{}, transport.CodeInvalidRequest, "request"},
		{"two", transport.Wait{LoadState: "load", URL: transport.Is("**/x")}, transport.CodeInvalidRequest, "request.url"},
		{"three", transport.Wait{LoadState: "load", URL: transport.Is("**/x"), DurationMs: 5}, transport.CodeInvalidRequest, "request.url"},
		{"url and duration", transport.Wait{URL: transport.Is("**/x"), DurationMs: 5}, transport.CodeInvalidRequest, "request.durationMs"},
		{"unknown state", transport.Wait{LoadState: "commit"}, transport.CodeInvalidRequest, "request.loadState"},
		{"empty url", transport.Wait{URL: transport.Is("")}, transport.CodeInvalidRequest, "request.url"},
		{"bad regex", transport.Wait{URL: transport.Like("(", "")}, transport.CodeInvalidRequest, "request.url.regex"},
		{"negative duration", transport.Wait{DurationMs: -1}, transport.CodeBudgetExceeded, "request.durationMs"},
		{"duration over the ceiling", transport.Wait{DurationMs: 120001}, transport.CodeBudgetExceeded, "request.durationMs"},
		{"timeout with duration", transport.Wait{DurationMs: 100, TimeoutMs: 100}, transport.CodeInvalidRequest, "request.timeoutMs"},
		{"timeout over the ceiling", transport.Wait{LoadState: "load", TimeoutMs: 120001}, transport.CodeBudgetExceeded, "request.timeoutMs"},
	}
	for _, c := range cases {
		err := transport.Validate(c.req)
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Code != c.code || oe.Path != c.path || oe.Operation != transport.OpWait {
			t.Errorf("%s: %v, want %s at %s", c.name, err, c.code, c.path)
		}
	}
	if err := transport.Validate(transport.Wait{URL: transport.Like("run=2$", "i"), TimeoutMs: 120000}); err != nil {
		t.Errorf("a regex url with the ceiling's timeout: %v", err)
	}
}

// assertOnce asserts kind/value with a single read (no wait).
func assertOnce(t *testing.T, rt transport.Caller, kind, value string) {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: kind, Value: value, Wait: transport.WaitNone}); err != nil {
		t.Fatalf("%s %q at once: %v", kind, value, err)
	}
}
