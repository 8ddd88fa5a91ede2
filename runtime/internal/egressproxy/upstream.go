package egressproxy

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Options configures Start.
type Options struct {
	// Upstream, when set, is the http:// proxy every admitted connection goes out through
	// (a corporate proxy, say), with Basic credentials from its user info: a tunnel is a
	// CONNECT to it, a plain request goes to it in absolute form. Refusals happen first: a
	// refused origin never reaches it. Without it the proxy dials destinations directly
	// (never through the environment's proxy, which would be an unchecked way out).
	Upstream *url.URL
	// TLS, when set, has the proxy end the browser's TLS and verify destinations itself,
	// with trusted CAs and client certificates (intercept.go). Nil: tunnels are relayed
	// untouched.
	TLS *TLSOptions
}

// upstream is the proxy Options.Upstream names. Its credentials live only in auth and in
// the plain-HTTP transport's proxy URL; no error or log line of this package carries them.
type upstream struct {
	addr string // host:port to dial
	auth string // the Proxy-Authorization value, "" without credentials
}

func newUpstream(u *url.URL) (*upstream, error) {
	if u.Scheme != "http" || u.Hostname() == "" {
		return nil, errors.New("egressproxy: the upstream proxy must be an http:// URL with a host")
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	up := &upstream{addr: net.JoinHostPort(u.Hostname(), port)}
	if u.User != nil {
		pw, _ := u.User.Password()
		up.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw))
	}
	return up, nil
}

// dial opens a connection to hostport: directly, or as a tunnel through the upstream proxy.
func (p *Proxy) dial(ctx context.Context, hostport string) (net.Conn, error) {
	if p.up == nil {
		return dialDirect(ctx, "tcp", hostport)
	}
	return p.up.connect(ctx, hostport)
}

// dialDirect dials addr within budgets.ProxyDial. A name under localhost (app.localhost)
// is dialled as localhost: Chromium resolves every such name to loopback itself (RFC 6761),
// so a page the browser reaches without the proxy is reached through it too, where the
// system resolver would know only "localhost".
func dialDirect(ctx context.Context, network, addr string) (net.Conn, error) {
	if host, port, err := net.SplitHostPort(addr); err == nil && strings.HasSuffix(strings.ToLower(host), ".localhost") {
		addr = net.JoinHostPort("localhost", port)
	}
	d := net.Dialer{Timeout: budgets.ProxyDial}
	return d.DialContext(ctx, network, addr)
}

// connect dials the upstream proxy and asks it for a tunnel to hostport. The dial and the
// CONNECT exchange share one budgets.ProxyDial: an upstream that accepts and never answers
// holds the request no longer than one that does not accept. ctx (the proxy's own) cuts it
// at Close.
func (u *upstream) connect(ctx context.Context, hostport string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.ProxyDial)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", u.addr)
	if err != nil {
		return nil, fmt.Errorf("egressproxy: dial the upstream proxy: %w", err)
	}
	deadline, _ := ctx.Deadline()
	_ = c.SetDeadline(deadline)
	cut := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	br, err := u.handshake(c, hostport)
	if !cut() || err != nil {
		_ = c.Close()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	_ = c.SetDeadline(time.Time{})
	if br.Buffered() > 0 {
		// The destination spoke first and its bytes came in behind the 200.
		return bufferedConn{c, br}, nil
	}
	return c, nil
}

// handshake sends CONNECT hostport (with the credentials) and reads the answer; only a 2xx
// opens the tunnel. The answer's text is not kept: an upstream's error page is nobody's
// business here.
func (u *upstream) handshake(c net.Conn, hostport string) (*bufio.Reader, error) {
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: hostport}, Host: hostport, Header: http.Header{}}
	if u.auth != "" {
		req.Header.Set("Proxy-Authorization", u.auth)
	}
	if err := req.Write(c); err != nil {
		return nil, fmt.Errorf("egressproxy: send CONNECT to the upstream proxy: %w", err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, fmt.Errorf("egressproxy: read the upstream proxy's CONNECT answer: %w", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("egressproxy: the upstream proxy refused CONNECT (%d)", resp.StatusCode)
	}
	return br, nil
}

// bufferedConn is a tunnel whose first bytes were read along with the CONNECT answer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }

// transports are the proxy's round-trippers for absolute-form requests: plain http goes to
// the upstream proxy in absolute form (the transport adds Proxy-Authorization from the URL),
// https over a tunnel that connect opens. Without an upstream both dial directly.
func (p *Proxy) transports(up *url.URL) (plain, tls *http.Transport) {
	plain = newTransport(dialDirect)
	if p.up == nil {
		return plain, plain
	}
	plain.Proxy = http.ProxyURL(up)
	tls = newTransport(func(ctx context.Context, _, addr string) (net.Conn, error) { return p.up.connect(ctx, addr) })
	return plain, tls
}

func newTransport(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Transport {
	return &http.Transport{
		Proxy:                 nil, // never the environment's proxy: that would be an unchecked way out
		DialContext:           dial,
		ResponseHeaderTimeout: budgets.ProxyResponseHeader,
		TLSHandshakeTimeout:   budgets.ProxyDial,
		DisableCompression:    true, // pass Accept-Encoding and bodies through untouched
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       budgets.ProxyIdleConn,
	}
}
