package runtime_test

import (
	"slices"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestPopupsHeldAtStart: without the egress proxy (a remote browser, or Options.EdgeProxy
// "off"), only in-browser interception holds a popup's first request. The worker holds every
// new page of its context at its start and intercepts it before it runs, so a window.open()
// to an origin outside the policy, and a target=_blank rel=noopener link, never reach the
// canary, and the refusal fails an operation.
func TestPopupsHeldAtStart(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct{ vector, role, name string }{
		{"window-open", "button", "Open"},
		{"blank-noopener", "link", "Open noopener"},
	} {
		t.Run(v.vector, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, EdgeProxy: runtime.EdgeProxyOff})
			if got := rt.Enforcement(); len(got) != 1 {
				t.Fatalf("enforcement %v, want the browser alone", got)
			}
			var r reported
			nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, v.vector, srv.URL)})
			r.note(&nav, err)
			act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: v.name}})
			r.note(&act, err)
			// The popup's refused first request is reported by the click, or by a later read.
			for i := 0; i < 20 && !blockedOrigin(srv.URL)(r.blocked); i++ {
				rd, err := transport.Dispatch(bg, rt, transport.Read{})
				r.note(&rd, err)
			}
			if canary.Connections() != 0 {
				t.Fatalf("the canary saw %d connections (%v)", canary.Connections(), canary.Paths())
			}
			want := transport.Blocked{Kind: "document", Origin: srv.URL}
			if !slices.Contains(r.blocked, want) || len(r.codes) == 0 || r.codes[0] != transport.CodeEgressDenied {
				t.Fatalf("codes %v blocked %v, want egress_denied with %+v", r.codes, r.blocked, want)
			}
		})
	}
}
