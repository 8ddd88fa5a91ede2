package runtime_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// gridEndpoint stands in for Selenium Grid 4's CDP endpoint (and browserless's): the
// browser's websocket alone, under a path of its own (/session/abc/se/cdp), proxied to
// Chromium's /devtools/browser/ID. Every other path — /devtools/page/ID, /json/… — is
// refused and counted, as such a grid has nothing there. With pages, the endpoint is a plain
// Chromium one instead: the browser websocket under Chromium's own path, and page websockets
// proxied too (and counted).
type gridEndpoint struct {
	url string // ws://127.0.0.1:PORT/session/abc/se/cdp (with pages: /devtools/browser/ID)

	mu      sync.Mutex
	dialled int      // browser websockets opened
	pages   int      // page websockets asked for
	refused []string // paths asked for and refused
}

func newGridEndpoint(t *testing.T, browserWS string, pages bool) *gridEndpoint {
	t.Helper()
	up, err := url.Parse(browserWS)
	if err != nil {
		t.Fatal(err)
	}
	g := &gridEndpoint{}
	browserPath := "/session/abc/se/cdp"
	if pages {
		browserPath = up.Path
	}
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		path := r.In.URL.Path
		if path == browserPath {
			path = up.Path
		}
		r.Out.URL.Scheme, r.Out.URL.Host, r.Out.URL.Path, r.Out.URL.RawQuery = "http", up.Host, path, ""
		r.Out.Host = up.Host
	}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		switch {
		case r.URL.Path == browserPath:
			g.dialled++
		case pages && strings.HasPrefix(r.URL.Path, "/devtools/page/"):
			g.pages++
		default:
			g.refused = append(g.refused, r.URL.Path)
			g.mu.Unlock()
			http.NotFound(w, r)
			return
		}
		g.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	g.url = "ws://" + srv.Listener.Addr().String() + browserPath
	return g
}

func (g *gridEndpoint) counts() (dialled, pages int, refused []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dialled, g.pages, slices.Clone(g.refused)
}

// TestSessionThroughGridEndpoint: a session whose CDPURL is a grid-style endpoint that
// exposes only the browser websocket navigates, observes, acts in a cross-site frame,
// follows a popup and reads it, all over one websocket: no page socket is dialled (the
// endpoint has none) and no /json is asked for. The egress proxy still carries the
// session's traffic: the endpoint is on this machine.
func TestSessionThroughGridEndpoint(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	grid, rt := openOnFramedPage(t, site.URL, false)
	if got := rt.Enforcement(); !slices.Contains(got, "proxy") {
		t.Errorf("enforcement %v: a loopback grid endpoint keeps the egress proxy", got)
	}
	typed, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Role: "textbox", Name: transport.Match("Card number")}, Text: transport.Literal("4111-2222")})
	if err != nil || typed.MutationState != transport.Verified {
		t.Fatalf("type into the frame: %+v %v", typed, err)
	}
	if ob := observe(t, rt); !strings.Contains(ob.Text, "4111-2222") {
		t.Fatalf("the frame does not show the typed text:\n%s", ob.Text)
	}

	pop := popupFrom(t, rt, site.URL+"/popup", "Open popup")
	if _, err := transport.Dispatch(bg, rt, transport.SelectTab{Tab: pop}); err != nil {
		t.Fatal(err)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil || !strings.Contains(rd.Text, "This is the popup") {
		t.Fatalf("read the popup: %+v %v", rd, err)
	}

	dialled, _, refused := grid.counts()
	if dialled != 1 || len(refused) != 0 {
		t.Fatalf("the worker opened %d browser websockets and asked for %v; want one and nothing else", dialled, refused)
	}
}

// TestNoPageWebsocketIsDialled: on a plain Chromium endpoint that would serve page
// websockets too, a session with a popup and a cross-site frame still opens one websocket,
// the browser's, and never a page's (/devtools/page/ID).
func TestNoPageWebsocketIsDialled(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	ep, rt := openOnFramedPage(t, site.URL, true)
	popupFrom(t, rt, site.URL+"/popup", "Open popup")
	dialled, pages, refused := ep.counts()
	if dialled != 1 || pages != 0 || len(refused) != 0 {
		t.Fatalf("the worker opened %d browser websockets and %d page websockets and asked for %v; want one browser websocket alone", dialled, pages, refused)
	}
}

// openOnFramedPage opens a session through a gridEndpoint (pages: a plain Chromium one) and
// navigates it to the fixture's page with a cross-site frame, which observe must show.
func openOnFramedPage(t *testing.T, site string, pages bool) (*gridEndpoint, *runtime.Runtime) {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	ep := newGridEndpoint(t, b.WebSocketURL(), pages)
	page, framed := crossSite(site)
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: ep.url, AllowedOrigins: []string{site, framed}})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	if ob := observe(t, rt); !strings.Contains(ob.Text, `iframe "Payment"`) || findRef(ob.Nodes, "button", "Pay") == "" {
		t.Fatalf("observe through the endpoint lacks the cross-site frame:\n%s", ob.Text)
	}
	return ep, rt
}
