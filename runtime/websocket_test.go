package runtime_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestWebSocketFailsItsOperation: a WebSocket handshake never reaches Fetch interception.
// The worker records one the page opens outside the policy (kind "websocket"), which fails
// the navigation that loaded the page, and the egress proxy's refusal of the same connection
// is attributed to the page ("proxy-connect"), never taken for the browser's background
// traffic.
func TestWebSocketFailsItsOperation(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	rt := runtimetest.Open(t, site.URL)
	_, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, "websocket", srv.URL)})
	if err == nil {
		t.Fatal("the navigation that opened a WebSocket outside the policy passed")
	}
	oe := transport.AsOperationError("", err)
	if oe.Code != transport.CodeEgressDenied || !slices.Contains(oe.Blocked, transport.Blocked{Kind: "websocket", Origin: srv.URL}) {
		t.Fatalf("navigate: %v, blocked %+v", err, oe.Blocked)
	}
	r := reported{blocked: append([]transport.Blocked{}, oe.Blocked...)}
	proxied := transport.Blocked{Kind: "proxy-connect", Origin: "connect://" + strings.TrimPrefix(srv.URL, "http://")}
	r.readUntil(rt, func(b []transport.Blocked) bool { return slices.Contains(b, proxied) })
	if !slices.Contains(r.blocked, proxied) {
		t.Fatalf("the proxy's refusal was not attributed to the page: %+v", r.blocked)
	}
	for _, b := range r.blocked {
		if b.Kind == runtime.KindBrowserBackground {
			t.Fatalf("a page's WebSocket taken for background traffic: %+v", r.blocked)
		}
	}
	if canary.Connections() != 0 {
		t.Fatalf("the canary saw %d connections", canary.Connections())
	}
}
