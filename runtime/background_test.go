package runtime

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestProxyRefusalsAttributed: a proxy refusal is the page's when the worker reported the
// page asking for the same host and port (by any scheme, in this call or an earlier one),
// and the browser's background traffic otherwise.
func TestProxyRefusalsAttributed(t *testing.T) {
	r := &Runtime{}
	r.notePageBlocked([]transport.Blocked{{Kind: "websocket", Origin: "http://127.0.0.1:4311"}, {Kind: "image", Origin: "https://cdn.test"}, {Kind: "document", Origin: "data:"}})
	got := r.classifyProxy([]egressproxy.Blocked{
		{Kind: "connect", Origin: "connect://127.0.0.1:4311"},
		{Kind: "connect", Origin: "connect://cdn.test:443"},
		{Kind: "http", Origin: "http://127.0.0.1:4311"},
		{Kind: "connect", Origin: "connect://content-autofill.googleapis.com:443"},
		{Kind: "connect", Origin: "connect://cdn.test:8443"},
	})
	want := []transport.Blocked{
		{Kind: "proxy-connect", Origin: "connect://127.0.0.1:4311"},
		{Kind: "proxy-connect", Origin: "connect://cdn.test:443"},
		{Kind: "proxy-http", Origin: "http://127.0.0.1:4311"},
		{Kind: KindBrowserBackground, Origin: "connect://content-autofill.googleapis.com:443"},
		{Kind: KindBrowserBackground, Origin: "connect://cdn.test:8443"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
	for origin, d := range map[string]string{"http://h": "h:80", "https://h": "h:443", "connect://h:9": "h:9", "http://[::1]:8080": "[::1]:8080",
		"data:": "", "invalid": "", "connect://h": ""} {
		if got := destination(origin); got != d {
			t.Errorf("destination(%q) = %q, want %q", origin, got, d)
		}
	}
}
