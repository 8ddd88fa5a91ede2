package runtime_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestWebTransportBlockedUnderARestrictedPolicy: WebTransport's QUIC is UDP that neither
// interception nor the egress proxy holds. Without the proxy (a browser that is not ours, or
// the proxy off) a page under a restricted policy cannot construct it and its UDP canary on
// 127.0.0.2 gets nothing; under "*" the same page reaches its canary, which proves the probe.
func TestWebTransportBlockedUnderARestrictedPolicy(t *testing.T) {
	t.Parallel()
	b := udpOnBrowser(t)
	for _, c := range []struct {
		name    string
		any     bool
		want    string
		reaches bool
	}{{"restricted", false, "wt: refused", false}, {"any", true, "wt: created", true}} {
		t.Run(c.name, func(t *testing.T) {
			canary := newNetCanary(t)
			site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!doctype html><title>WebTransport</title><p id="s">pending</p><script>
try { window.kept = new WebTransport("https://%s:%d/"); window.kept.closed.catch(() => {}); document.getElementById("s").textContent = "wt: created"; }
catch (e) { document.getElementById("s").textContent = /fastbrowser/.test(e.message) ? "wt: refused" : "wt: failed " + e.name; }
</script>`, fixture.NetCanaryIP, canary.UDPPort())
			}))
			defer site.Close()
			origins := []string{site.URL}
			if c.any {
				origins = nil
			}
			rt := runtimetest.OpenWith(t, runtime.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: origins, EdgeProxy: runtime.EdgeProxyOff})
			if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL}); err != nil {
				t.Fatal(err)
			}
			if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: c.want}); err != nil {
				t.Fatal(err)
			}
			// The refused constructor sent nothing; the open one's handshake reaches the
			// canary within moments.
			deadline := time.Now().Add(5 * time.Second)
			for c.reaches && canary.Packets() == 0 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if got := canary.Packets() > 0; got != c.reaches {
				t.Fatalf("the canary got %d UDP packets", canary.Packets())
			}
		})
	}
}
