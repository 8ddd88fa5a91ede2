package runtime_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// enforcedVectors are the fixture's egress vectors the in-browser enforcement covers on its
// own. websocket and the popups (window-open, blank-noopener) are the proxy's
// (TestEgressRefusedAtTheEdge), serviceworker the registration block's.
var enforcedVectors = []string{"img", "script", "stylesheet", "iframe", "fetch", "xhr", "beacon", "prefetch",
	"eventsource", "worker", "redirect", "redirect307", "meta-refresh", "script-nav", "form-get", "form-post"}

// visitUntil loads a vector page and reads until done holds for what was reported so far,
// every 100 ms for at most 10 s: a request made by a timer, a worker or an on-load script
// can land well after the navigation returns on a loaded machine, so a test waits for the
// refusal it expects rather than for a fixed time.
func visitUntil(t *testing.T, rt transport.Caller, url string, octx *transport.OperationContext, done func([]transport.Blocked) bool) ([]transport.Blocked, []transport.Code) {
	t.Helper()
	var r reported
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: url}, octx)
	r.note(&nav, err)
	for deadline := time.Now().Add(10 * time.Second); !done(r.blocked) && time.Now().Before(deadline); {
		rd, err := transport.Dispatch(bg, rt, transport.Read{}, octx)
		r.note(&rd, err)
		if !done(r.blocked) {
			time.Sleep(100 * time.Millisecond)
		}
	}
	return r.blocked, r.codes
}

// reported gathers what a series of calls reported: every request refused, from results and
// errors alike, and every error code.
type reported struct {
	blocked []transport.Blocked
	codes   []transport.Code
	errs    []error
}

// readUntil reads until done holds of what the calls reported (a refusal that comes after
// the operation that caused it is reported by the next one), for at most 10 s.
func (r *reported) readUntil(rt transport.Caller, done func([]transport.Blocked) bool, octx ...*transport.OperationContext) {
	for deadline := time.Now().Add(10 * time.Second); !done(r.blocked) && time.Now().Before(deadline); {
		rd, err := transport.Dispatch(bg, rt, transport.Read{}, octx...)
		r.note(&rd, err)
	}
}

func (r *reported) note(res transport.Result, err error) {
	if err != nil {
		oe := transport.AsOperationError("", err)
		r.codes, r.blocked = append(r.codes, oe.Code), append(r.blocked, oe.Blocked...)
		r.errs = append(r.errs, err)
		return
	}
	r.blocked = append(r.blocked, transport.BlockedOf(res)...)
}

// blockedOrigin is a visitUntil condition: a request to origin was reported blocked.
func blockedOrigin(origin string) func([]transport.Blocked) bool {
	return func(blocked []transport.Blocked) bool {
		for _, b := range blocked {
			if b.Origin == origin {
				return true
			}
		}
		return false
	}
}

// TestEgressRefusedInBrowser is the egress issue's acceptance 1 for the vectors enforced so
// far: the canary sees no connection at all, the refusal is reported with kind and origin
// only, and the operation fails with egress_denied.
func TestEgressRefusedInBrowser(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	for _, v := range enforcedVectors {
		t.Run(v, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			rt := runtimetest.Open(t, site.URL)
			blocked, codes := visitUntil(t, rt, fixture.EgressURL(site.URL, v, srv.URL), nil, blockedOrigin(srv.URL))
			if canary.Connections() != 0 || canary.Hits() != 0 {
				t.Fatalf("the canary saw %d connections, %d requests (%v)", canary.Connections(), canary.Hits(), canary.Paths())
			}
			found := false
			for _, b := range blocked {
				if b.Origin == srv.URL {
					found = true
				}
				if strings.Contains(b.Origin, "/canary") || b.Kind == "" {
					t.Errorf("blocked entry carries more than kind and origin: %+v", b)
				}
			}
			if !found {
				t.Fatalf("no blocked request reported for the canary: %+v", blocked)
			}
			denied := false
			for _, c := range codes {
				denied = denied || c == transport.CodeEgressDenied
			}
			if !denied {
				t.Fatalf("no operation failed with egress_denied: %v", codes)
			}
		})
	}
}

// TestEgressAllowedThroughContext is acceptance 2: with the canary's origin in the base and a
// narrowing context that includes it, the same pages reach it.
func TestEgressAllowedThroughContext(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	for _, v := range []string{"img", "fetch", "iframe", "redirect", "form-post", "worker"} {
		t.Run(v, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			rt := runtimetest.Open(t, site.URL, srv.URL)
			narrow, err := transport.Dispatch(bg, rt, transport.NarrowOriginPolicy{Origins: []string{site.URL, srv.URL}})
			if err != nil {
				t.Fatal(err)
			}
			blocked, codes := visitUntil(t, rt, fixture.EgressURL(site.URL, v, srv.URL), &narrow.Context,
				func([]transport.Blocked) bool { return canary.Hits() > 0 })
			if canary.Hits() == 0 || len(blocked) != 0 || len(codes) != 0 {
				t.Fatalf("allowed canary: hits %d, blocked %v, codes %v", canary.Hits(), blocked, codes)
			}
		})
	}
}

// TestEgressSubresourcesReport: under subresources "report", a refused image is reported on
// the result and the operation succeeds; a refused navigation still fails.
func TestEgressSubresourcesReport(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Subresources: transport.SubresourcesReport})
	blocked, codes := visitUntil(t, rt, fixture.EgressURL(site.URL, "img", srv.URL), nil, blockedOrigin(srv.URL))
	if len(codes) != 0 || len(blocked) == 0 || blocked[0].Kind != "image" {
		t.Fatalf("report mode: blocked %v codes %v", blocked, codes)
	}
	_, codes = visitUntil(t, rt, fixture.EgressURL(site.URL, "redirect", srv.URL), nil, blockedOrigin(srv.URL))
	if len(codes) == 0 || codes[0] != transport.CodeEgressDenied {
		t.Fatalf("a refused navigation must fail even in report mode: %v", codes)
	}
	if canary.Connections() != 0 {
		t.Fatalf("canary connections %d", canary.Connections())
	}
}

// TestServiceWorkersBlockedByDefault: registration is refused unless the session allows it,
// and the canary never hears from a service worker.
func TestServiceWorkersBlockedByDefault(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	// The canary is allowed here: only the service worker block can keep it silent.
	rt := runtimetest.Open(t, site.URL, srv.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, "serviceworker", srv.URL)}); err != nil {
		t.Fatal(err)
	}
	// The page shows the registration's refusal: no worker exists that could reach the
	// canary later.
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "sw: failed"}); err != nil {
		t.Fatalf("registration was not refused: %v", err)
	}
	if canary.Saw("/canary/serviceworker") {
		t.Fatal("a service worker reached the canary")
	}
	b, _ := runtimetest.Browser()
	allowed := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL, srv.URL}, ServiceWorkers: "allow"})
	if _, err := transport.Dispatch(bg, allowed, transport.Navigate{URL: fixture.EgressURL(site.URL, "serviceworker", srv.URL)}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, allowed, transport.Assert{Kind: transport.AssertTextContains, Value: "sw: registered"}); err != nil {
		t.Fatalf("opt-in registration: %v", err)
	}
}

// TestEgressRefusedAtTheEdge covers what page interception cannot see: a WebSocket handshake
// and a popup opened without an opener, whose first request can precede interception. The
// session's egress proxy refuses both (acceptance 1 for those vectors, and 5: the popup's
// first document never reaches the canary).
func TestEgressRefusedAtTheEdge(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	for _, v := range []struct{ vector, role, name string }{
		{"websocket", "", ""},
		{"blank-noopener", "link", "Open noopener"},
		{"window-open", "button", "Open"},
	} {
		t.Run(v.vector, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			rt := runtimetest.Open(t, site.URL)
			if got := rt.Enforcement(); len(got) != 2 || got[1] != "proxy" {
				t.Fatalf("enforcement %v, want browser and proxy", got)
			}
			var r reported
			nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, v.vector, srv.URL)})
			r.note(&nav, err)
			if v.role != "" {
				act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: transport.Match(v.name)}})
				r.note(&act, err)
			}
			// The refusal (a popup's, a WebSocket's) may come after the operation that caused
			// it: wait for it, then look at the canary.
			r.readUntil(rt, func(b []transport.Blocked) bool { return len(b) > 0 })
			codes, blocked := r.codes, r.blocked
			if canary.Connections() != 0 {
				t.Fatalf("the canary saw %d connections (%v)", canary.Connections(), canary.Paths())
			}
			if len(codes) == 0 || codes[0] != transport.CodeEgressDenied || len(blocked) == 0 {
				t.Fatalf("codes %v blocked %v", codes, blocked)
			}
		})
	}
}

// TestEgressNarrowedInChildTargets: a cross-site iframe (the canary is addressed as
// localhost, another site than the 127.0.0.1 fixture) and a dedicated worker are held to the
// narrowing context. The base is "*" and the edge proxy is off: only in-browser enforcement
// of the narrowing context keeps the canary silent. The worker's fetch comes after the load event,
// so an assert under the same context waits for its outcome.
func TestEgressNarrowedInChildTargets(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	for _, v := range []struct{ vector, outcome string }{{"iframe", ""}, {"worker", "worker: "}} {
		t.Run(v.vector, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
			rt := openBrowserOnly(t)
			if got := rt.Enforcement(); len(got) != 1 {
				t.Fatalf("enforcement %v, want the browser alone", got)
			}
			narrow, err := transport.Dispatch(bg, rt, transport.NarrowOriginPolicy{Origins: []string{site.URL}})
			if err != nil {
				t.Fatal(err)
			}
			page := fixture.EgressURL(site.URL, v.vector, other)
			visitAndAwait := func(octx *transport.OperationContext, done func([]transport.Blocked) bool) ([]transport.Blocked, []transport.Code) {
				blocked, codes := visitUntil(t, rt, page, octx, done)
				if v.outcome == "" {
					return blocked, codes
				}
				_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: v.outcome}, octx)
				if err != nil {
					oe := transport.AsOperationError("", err)
					codes, blocked = append(codes, oe.Code), append(blocked, oe.Blocked...)
				}
				return blocked, codes
			}
			blocked, codes := visitAndAwait(&narrow.Context, blockedOrigin(other))
			if canary.Connections() != 0 {
				t.Fatalf("the canary saw %d connections (%v)", canary.Connections(), canary.Paths())
			}
			found := false
			for _, b := range blocked {
				found = found || b.Origin == other
			}
			if !found || len(codes) == 0 || codes[0] != transport.CodeEgressDenied {
				t.Fatalf("blocked %v codes %v", blocked, codes)
			}
			// Without the context the base "*" applies again: the same page reaches the canary.
			if _, codes := visitAndAwait(nil, func([]transport.Blocked) bool { return canary.Hits() > 0 }); len(codes) != 0 || canary.Hits() == 0 {
				t.Fatalf("base policy: codes %v, canary hits %d", codes, canary.Hits())
			}
		})
	}
}

// TestEgressInOutOfProcessFrame: an allowed cross-site frame runs in a renderer of its own,
// out of reach of the tab's interception. The worker auto-attaches to it paused and
// intercepts it before it resumes, so an image the frame loads from the canary is refused
// like the tab's own. The base is "*" and the edge proxy is off.
func TestEgressInOutOfProcessFrame(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	// The framed site answers the iframe vector's /canary/iframe with a page that loads an
	// image from the canary.
	framed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>framed</title><p>framed</p><img src="%s/canary/oopif-img" alt="">`, srv.URL)
	}))
	defer framed.Close()
	framedOrigin := strings.Replace(framed.URL, "127.0.0.1", "localhost", 1)
	rt := openBrowserOnly(t)
	narrow, err := transport.Dispatch(bg, rt, transport.NarrowOriginPolicy{Origins: []string{site.URL, framedOrigin}})
	if err != nil {
		t.Fatal(err)
	}
	blocked, codes := visitUntil(t, rt, fixture.EgressURL(site.URL, "iframe", framedOrigin), &narrow.Context, blockedOrigin(srv.URL))
	if canary.Connections() != 0 {
		t.Fatalf("the framed page reached the canary: %v", canary.Paths())
	}
	if len(blocked) == 0 || blocked[0] != (transport.Blocked{Kind: "image", Origin: srv.URL}) || len(codes) == 0 || codes[0] != transport.CodeEgressDenied {
		t.Fatalf("blocked %v codes %v", blocked, codes)
	}
	// The same page without the context: the frame's image reaches the canary.
	if _, codes := visitUntil(t, rt, fixture.EgressURL(site.URL, "iframe", framedOrigin), nil,
		func([]transport.Blocked) bool { return canary.Saw("/canary/oopif-img") }); len(codes) != 0 || !canary.Saw("/canary/oopif-img") {
		t.Fatalf("base policy: codes %v, canary %v", codes, canary.Paths())
	}
}

// openBrowserOnly opens a "*" session without the edge proxy, for tests that prove what
// in-browser enforcement does on its own.
func openBrowserOnly(t *testing.T) *runtime.Runtime {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	return runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), EdgeProxy: runtime.EdgeProxyOff})
}

// TestEgressNarrowedAtTheEdge: the proxy holds the narrowing context too, not just the base.
// The canary is in the base (listed, or "*") but not in the context; a WebSocket and a
// popup's first document (neither of which page interception sees) must not reach it.
func TestEgressNarrowedAtTheEdge(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	type vector struct{ vector, role, name string }
	for _, v := range []struct {
		base string
		vector
	}{
		{"listed", vector{"websocket", "", ""}},
		{"listed", vector{"window-open", "button", "Open"}},
		{"any", vector{"websocket", "", ""}},
		{"any", vector{"window-open", "button", "Open"}},
		{"any", vector{"blank-noopener", "link", "Open noopener"}},
	} {
		t.Run(v.base+"/"+v.vector.vector, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			var rt *runtime.Runtime
			if v.base == "any" {
				rt = runtimetest.Open(t)
			} else {
				rt = runtimetest.Open(t, site.URL, srv.URL)
			}
			if got := rt.Enforcement(); len(got) != 2 || got[1] != "proxy" {
				t.Fatalf("enforcement %v, want browser and proxy", got)
			}
			narrow, err := transport.Dispatch(bg, rt, transport.NarrowOriginPolicy{Origins: []string{site.URL}})
			if err != nil {
				t.Fatal(err)
			}
			var r reported
			nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, v.vector.vector, srv.URL)}, &narrow.Context)
			r.note(&nav, err)
			if v.role != "" {
				act, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: transport.Match(v.name)}}, &narrow.Context)
				r.note(&act, err)
			}
			r.readUntil(rt, func(b []transport.Blocked) bool { return len(b) > 0 }, &narrow.Context)
			codes := r.codes
			if canary.Connections() != 0 {
				t.Fatalf("the canary saw %d connections (%v)", canary.Connections(), canary.Paths())
			}
			if len(codes) == 0 || codes[0] != transport.CodeEgressDenied {
				t.Fatalf("codes %v", codes)
			}
		})
	}
}

// TestAnyBaseThroughTheProxy: a "*" session goes through the edge proxy (so a narrowing
// context holds there too, TestEgressNarrowedAtTheEdge), and without a context the proxy
// admits any http(s) origin: a WebSocket and a popup's document reach the canary.
func TestAnyBaseThroughTheProxy(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	for _, v := range []struct{ vector, role, name, path string }{
		{"websocket", "", "", "/canary/websocket"},
		{"blank-noopener", "link", "Open noopener", "/canary/blank-noopener"},
	} {
		t.Run(v.vector, func(t *testing.T) {
			canary, srv := fixture.NewCanaryServer()
			defer srv.Close()
			rt := runtimetest.Open(t)
			if got := rt.Enforcement(); len(got) != 2 || got[1] != "proxy" {
				t.Fatalf("enforcement %v, want browser and proxy", got)
			}
			if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, v.vector, srv.URL)}); err != nil {
				t.Fatal(err)
			}
			if v.role != "" {
				if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: v.role, Name: transport.Match(v.name)}}); err != nil {
					t.Fatal(err)
				}
			}
			if !proctest.PollUntil(10*time.Second, func() bool { return canary.Saw(v.path) }) {
				t.Fatalf("the canary never saw %s (%v)", v.path, canary.Paths())
			}
		})
	}
}

// TestAnyBaseKeepsAnUpstreamProxy: where the environment names an upstream proxy, a "*"
// session stays off the edge proxy, which would dial around it; a restricted one still uses
// it.
func TestAnyBaseKeepsAnUpstreamProxy(t *testing.T) {
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9")
	if got := runtimetest.Open(t).Enforcement(); len(got) != 1 || got[0] != "browser" {
		t.Fatalf(`"*" with HTTPS_PROXY set: enforcement %v, want the browser alone`, got)
	}
	if got := runtimetest.Open(t, "http://127.0.0.1:1").Enforcement(); len(got) != 2 {
		t.Fatalf("restricted with HTTPS_PROXY set: enforcement %v, want browser and proxy", got)
	}
}
