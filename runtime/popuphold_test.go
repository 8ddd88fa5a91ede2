package runtime_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
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
			act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: transport.Match(v.name)}})
			r.note(&act, err)
			// The popup's refused first request is reported by the click, or by a later read.
			r.readUntil(rt, blockedOrigin(srv.URL))
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

// TestPopupsHeldAmongNeighbours: four sessions share one browser, as `run --jobs 4` does, and
// each opens popups to an origin outside its policy, round after round, with only in-browser
// interception to hold them: a window.open() and a noopener link in turn. Every worker's
// hold sees every new page, and must let its neighbours' go without running them: a worker
// that resumed a neighbour's window.open() popup ran it before the neighbour's interception
// was on (the canary saw a request within the first few rounds), and one that only detached
// from a neighbour's noopener popup left that popup's navigation deferred for good. Each
// round must report its popup's refusal, and the canary must see nothing.
// FASTBROWSER_POPUP_ROUNDS sets the rounds per session (8; 50 makes 200 popups).
func TestPopupsHeldAmongNeighbours(t *testing.T) {
	// Not parallel: four sessions opening popups as fast as they can are load enough; the
	// neighbours it needs are its own.
	const sessions = 4
	rounds := 8
	if v := os.Getenv("FASTBROWSER_POPUP_ROUNDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("FASTBROWSER_POPUP_ROUNDS=%q: want a positive count", v)
		}
		rounds = n
	}
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	vectors := []struct{ vector, role, name string }{
		{"window-open", "button", "Open"},
		{"blank-noopener", "link", "Open noopener"},
	}
	refused := blockedOrigin(srv.URL)
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for s := range sessions {
		rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, EdgeProxy: runtime.EdgeProxyOff})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				v := vectors[(s+i)%len(vectors)]
				page := fixture.EgressURL(site.URL, v.vector, srv.URL)
				// A refusal reported late fails the next operation at once, nothing done
				// (retry safe), so the round's page is opened until it is.
				_, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page})
				for tries := 1; tries < 3 && err != nil; tries++ {
					_, err = transport.Dispatch(bg, rt, transport.Navigate{URL: page})
				}
				if err != nil {
					errs <- fmt.Errorf("session %d, round %d: navigate: %v", s, i, err)
					return
				}
				var r reported
				act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: transport.Match(v.name)}})
				r.note(&act, err)
				r.readUntil(rt, refused)
				if n := canary.Connections(); n != 0 {
					errs <- fmt.Errorf("session %d, round %d (%s): the canary saw %d connections (%v)", s, i, v.vector, n, canary.Paths())
					return
				}
				if !refused(r.blocked) {
					errs <- fmt.Errorf("session %d, round %d (%s): the popup's refusal was never reported (codes %v, blocked %v)", s, i, v.vector, r.codes, r.blocked)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := canary.Connections(); n != 0 {
		t.Fatalf("the canary saw %d connections (%v)", n, canary.Paths())
	}
	t.Logf("%d popups across %d sessions, none reached the canary", sessions*rounds, sessions)
}
