package runtime

import (
	"net"
	"net/url"
	"os"
	"sync/atomic"

	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// startProxy starts the session's egress proxy when the browser can reach a loopback proxy
// (loopback: it was launched here, or attached on this machine). A remote browser keeps
// in-browser enforcement only, and the session says so (Enforcement). With an upstream
// proxy (Options.UpstreamProxy) the egress proxy dials through it.
//
// The proxy admits what the policy in force admits (edge): the effective policy of the
// latest call, which stays until the next call, like the worker's. A "*" base goes through
// it too: a narrowing context then holds at the edge as well, which is what catches a
// popup's first request (interception attaches to a popup only when Chromium announces it).
// The exception is a "*" base on a machine whose environment names an upstream proxy and
// no Options.UpstreamProxy: our proxy would dial directly, so it would cut such a session
// off from everything it may reach. Given an UpstreamProxy the egress proxy always runs (it
// is what dials through it), and the environment's proxy is not used.
func startProxy(base policy.Policy, opts Options, upstream *url.URL, loopback bool, edge *atomic.Pointer[policy.Policy]) (*egressproxy.Proxy, error) {
	if opts.EdgeProxy == EdgeProxyOff || !loopback || (upstream == nil && base.IsAny() && upstreamProxyConfigured()) {
		return nil, nil
	}
	edge.Store(&base)
	px := egressproxy.Options{Upstream: upstream}
	if opts.TLS != nil {
		px.TLS = opts.TLS.proxyOptions()
	}
	return egressproxy.StartWith(func(origin string) bool { return edge.Load().AllowsOrigin(origin) }, px)
}

// proxyFailed is the session error for an egress proxy that could not be started.
func proxyFailed(err error) error {
	return transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the egress proxy could not be started").WithCause(err)
}

// upstreamProxyConfigured reports whether the environment sends HTTP through a proxy.
func upstreamProxyConfigured() bool {
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
		if os.Getenv(k) != "" {
			return true
		}
	}
	return false
}

// loopbackEndpoint reports whether a DevTools endpoint is on this machine (a launched
// browser's always is).
func loopbackEndpoint(cdpURL string) bool {
	u, err := url.Parse(cdpURL)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// Enforcement lists where this session's origin policy is enforced: always "browser"
// (interception in the worker), and "proxy" when the egress proxy carries its traffic.
func (r *Runtime) Enforcement() []string {
	if r.proxy != nil {
		return []string{"browser", "proxy"}
	}
	return []string{"browser"}
}

// proxyBlocked returns what the proxy refused since the last call, classified.
func (r *Runtime) proxyBlocked() []transport.Blocked {
	if r.proxy == nil {
		return nil
	}
	all := r.proxy.Blocked()
	if len(all) <= r.proxySeen {
		return nil
	}
	fresh := all[r.proxySeen:]
	r.proxySeen = len(all)
	return r.classifyProxy(fresh)
}

// withProxyBlocked adds the proxy's refusals to an operation's outcome. A refusal never fails
// the operation by itself: what a page asked for and interception could not stop (a
// WebSocket) the worker records too, and its record fails the operation; what no page asked
// for is the browser's own background traffic (background.go).
func (r *Runtime) withProxyBlocked(op string, res transport.Result, err error) (transport.Result, error) {
	if err != nil {
		r.notePageBlocked(transport.AsOperationError(op, err).Blocked)
	} else {
		r.notePageBlocked(transport.BlockedOf(res))
	}
	blocked := r.proxyBlocked()
	if len(blocked) == 0 {
		return res, err
	}
	if err != nil {
		oe := *transport.AsOperationError(op, err)
		oe.Blocked = append(oe.Blocked, blocked...)
		return nil, &oe
	}
	transport.SetBlocked(res, append(transport.BlockedOf(res), blocked...))
	return res, nil
}
