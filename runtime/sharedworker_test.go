package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestSharedWorkersBlockedByDefault: a shared worker belongs to no one page, so page
// interception never sees its fetches. It is blocked unless the session allows service
// workers. The canary is in the policy here: only the block keeps it silent.
func TestSharedWorkersBlockedByDefault(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	page := fixture.EgressURL(site.URL, "sharedworker", srv.URL)
	blocked := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL, srv.URL}})
	if _, err := transport.Dispatch(bg, blocked, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, blocked, transport.Assert{Kind: transport.AssertTextContains, Value: "sharedworker: failed"}); err != nil {
		rd, _ := transport.Dispatch(bg, blocked, transport.Read{})
		t.Fatalf("the shared worker was not refused: %v (page: %q)", err, rd.Text)
	}
	allowed := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL, srv.URL}, ServiceWorkers: "allow"})
	if _, err := transport.Dispatch(bg, allowed, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, allowed, transport.Assert{Kind: transport.AssertTextContains, Value: "sharedworker: done"}); err != nil {
		t.Fatalf("opt-in shared worker: %v", err)
	}
	// Only the allowed session's shared worker reached the canary.
	n := 0
	for _, p := range canary.Paths() {
		if p == "/canary/sharedworker" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the canary saw /canary/sharedworker %d times, want once (the allowed session's)", n)
	}
}
