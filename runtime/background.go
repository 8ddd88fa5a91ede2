package runtime

import (
	"net"
	"net/url"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// KindBrowserBackground is the blocked kind of a connection the egress proxy refused that no
// page of the session was seen to make: the browser's own background traffic (an attached
// browser started without --disable-background-networking asks Google's autofill service
// about every form, through the context's proxy). It is refused like everything else outside
// the policy, and recorded, but it does not fail the operation it is reported with.
const KindBrowserBackground = "browser-background"

// classifyProxy names each proxy refusal: "proxy-connect" or "proxy-http" when the worker
// reported the page asking for the same host and port (this operation or an earlier one:
// a WebSocket, whose handshake interception never sees, is the usual one), otherwise
// KindBrowserBackground. The proxy cannot tell who opened a connection; the worker's record
// of what pages asked for is the only attribution there is.
func (r *Runtime) classifyProxy(fresh []egressproxy.Blocked) []transport.Blocked {
	out := make([]transport.Blocked, len(fresh))
	for i, b := range fresh {
		kind := KindBrowserBackground
		if r.pageDestinations[destination(b.Origin)] {
			kind = "proxy-" + b.Kind
		}
		out[i] = transport.Blocked{Kind: kind, Origin: b.Origin}
	}
	return out
}

// notePageBlocked remembers the destinations of what the worker refused for pages.
func (r *Runtime) notePageBlocked(blocked []transport.Blocked) {
	for _, b := range blocked {
		d := destination(b.Origin)
		if d == "" || r.pageDestinations[d] {
			continue
		}
		if r.pageDestinations == nil {
			r.pageDestinations = map[string]bool{}
		}
		if len(r.pageDestinations) < budgets.PageDestinationsKept {
			r.pageDestinations[d] = true
		}
	}
}

// destination is the host:port an origin connects to: "http://h" → "h:80",
// "https://h" → "h:443", "connect://h:p" → "h:p"; "" for anything else (data:, invalid).
func destination(origin string) string {
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "http", "ws":
			port = "80"
		case "https", "wss":
			port = "443"
		default:
			return ""
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
