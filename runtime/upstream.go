package runtime

import (
	"net/url"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// upstreamShape is what Options.UpstreamProxy must look like. Error messages say this and
// never echo the value: it may carry a password.
const upstreamShape = "expected http://[user:password@]host[:port]"

// parseUpstream reads Options.UpstreamProxy ("" → nil): an http:// proxy with a host and no
// path, query or fragment. Its password joins the session's secrets, so that nothing the
// session returns can carry it even by accident.
func parseUpstream(opts Options, r *Runtime) (*url.URL, error) {
	if opts.UpstreamProxy == "" {
		return nil, nil
	}
	if opts.EdgeProxy == EdgeProxyOff {
		return nil, upstreamNeedsEdge()
	}
	u, err := url.Parse(opts.UpstreamProxy)
	if err != nil {
		// url.Parse's error quotes the whole URL, password included.
		return nil, transport.Invalid("", "upstreamProxy", "not a URL; %s", upstreamShape)
	}
	if pw, ok := u.User.Password(); ok && pw != "" {
		_ = r.secrets.Add(pw)
	}
	switch scheme := strings.ToLower(u.Scheme); {
	case scheme == "https" || strings.HasPrefix(scheme, "socks"):
		return nil, transport.Invalid("", "upstreamProxy", "%s proxies are not supported; %s", scheme, upstreamShape)
	case scheme != "http":
		return nil, transport.Invalid("", "upstreamProxy", "%s", upstreamShape)
	case u.Hostname() == "":
		return nil, transport.Invalid("", "upstreamProxy", "a host is required; %s", upstreamShape)
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return nil, transport.Invalid("", "upstreamProxy", "no path, query or fragment; %s", upstreamShape)
	}
	u.Scheme = "http"
	return u, nil
}

// upstreamNeedsEdge refuses an upstream proxy for a session without the egress proxy: the
// egress proxy is what dials through it.
func upstreamNeedsEdge() error {
	return transport.Invalid("", "upstreamProxy", "the upstream proxy needs the egress proxy, which only a launched or loopback browser has (and not with edgeProxy %q)", EdgeProxyOff)
}
