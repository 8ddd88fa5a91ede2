// Package egressproxy owns the loopback HTTP proxy that fastbrowser puts each browser
// context behind. It admits only requests to origins the caller's policy allows: plain
// HTTP in absolute form, CONNECT tunnels (https, and ws:// and wss://, which Chromium
// tunnels through CONNECT whenever a proxy is set) and absolute-form WebSocket upgrades.
// It is defence in depth behind in-browser CDP interception: traffic interception cannot
// see (WebSocket handshakes, a popup's first request) still cannot leave. What it admits it
// dials directly, or through an upstream HTTP proxy (Options.Upstream, upstream.go).
//
// With Options.TLS it also ends the browser's TLS and verifies destinations itself, with
// trusted CAs and client certificates (intercept.go).
//
// The proxy never logs request paths, queries, headers or bodies; the only things it keeps
// about traffic are the origins it refused and, when it intercepts, per origin whether its
// last TLS handshake verified and why one failed.
package egressproxy

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Allow reports whether an origin ("http://host:port" form, normalised by the caller's
// policy) may be reached.
type Allow func(origin string) bool

// Blocked is one refused destination. Kind is "http" or "connect"; Origin is
// scheme://host[:port], or "connect://host:port" for a CONNECT.
type Blocked struct{ Kind, Origin string }

const (
	forbiddenBody = "fastbrowser: origin not allowed\n"
)

// Proxy is a running egress proxy. It is safe for concurrent use.
type Proxy struct {
	allow     Allow
	ln        net.Listener
	srv       *http.Server
	up        *upstream       // nil: destinations are dialed directly
	transport *http.Transport // plain http in absolute form
	tlsTrans  *http.Transport // https in absolute form (the same as transport without an upstream)
	ctx       context.Context // every request and dial derives from it, so Close cancels them
	cancel    context.CancelFunc
	served    chan struct{} // closed when srv.Serve returns
	tls       *TLSOptions   // nil: CONNECT tunnels are relayed, never intercepted
	intercept *interceptor  // with tls: serves the intercepted connections (intercept.go)

	mu          sync.Mutex
	closed      bool
	handlers    sync.WaitGroup        // Add only under mu while !closed, so Close's Wait is well ordered
	tunnels     map[net.Conn]struct{} // hijacked and upstream conns: http.Server no longer tracks them
	blocked     []Blocked
	blockedSeen map[Blocked]bool
	verified    map[string]bool // https origin → its last handshake verified (tlsupstream.go)
	tlsFailures []TLSFailure
	tlsSeq      uint64
}

// Start listens on 127.0.0.1:0 and serves until Close, dialing destinations directly.
func Start(allow Allow) (*Proxy, error) { return StartWith(allow, Options{}) }

// StartWith is Start with options (an upstream proxy).
func StartWith(allow Allow, opts Options) (*Proxy, error) {
	if allow == nil {
		return nil, errors.New("egressproxy: nil Allow")
	}
	if opts.TLS != nil && opts.TLS.CA == nil {
		return nil, errNoIntercept
	}
	var up *upstream
	if opts.Upstream != nil {
		var err error
		if up, err = newUpstream(opts.Upstream); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{
		allow:       allow,
		ln:          ln,
		up:          up,
		ctx:         ctx,
		cancel:      cancel,
		served:      make(chan struct{}),
		tunnels:     map[net.Conn]struct{}{},
		blockedSeen: map[Blocked]bool{},
		verified:    map[string]bool{},
		tls:         opts.TLS,
	}
	p.transport, p.tlsTrans = p.transports(opts.Upstream)
	if p.tls != nil {
		p.startInterceptor()
		p.tlsTrans = p.intercept.trans // https in absolute form is verified the same way
	}
	p.srv = &http.Server{
		Handler:           http.HandlerFunc(p.serve),
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: budgets.ProxyReadHeader,
		// The standard library would otherwise log to stderr; keep traffic details out of logs.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(p.served)
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// Addr is the proxy's listening address, "127.0.0.1:PORT".
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// URL is the proxy as Chromium's proxyServer wants it, "http://127.0.0.1:PORT".
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Blocked returns the destinations refused so far, deduplicated, oldest first, at most 256.
func (p *Proxy) Blocked() []Blocked {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Blocked(nil), p.blocked...)
}

// Close stops listening, closes every tunnel and connection and waits, at most two
// seconds, for handlers to return. Calling it again does nothing.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	for c := range p.tunnels {
		_ = c.Close()
	}
	p.mu.Unlock()

	p.cancel()
	err := p.srv.Close()
	done := make(chan struct{})
	go func() {
		p.handlers.Wait()
		<-p.served
		close(done)
	}()
	timer := time.NewTimer(budgets.ProxyCloseWait)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		err = errors.Join(err, errors.New("egressproxy: handlers still running after close"))
	}
	if p.intercept != nil {
		p.intercept.close()
	}
	p.transport.CloseIdleConnections()
	p.tlsTrans.CloseIdleConnections()
	return err
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		http.Error(w, "fastbrowser: proxy closed", http.StatusServiceUnavailable)
		return
	}
	p.handlers.Add(1)
	p.mu.Unlock()
	defer p.handlers.Done()

	switch {
	case r.Method == http.MethodConnect:
		p.serveConnect(w, r)
	case r.URL.Scheme == "" || r.URL.Host == "":
		// Origin form: someone is talking to the proxy as if it were a web server.
		http.Error(w, "fastbrowser: proxy requests only", http.StatusBadRequest)
	case isWebSocketUpgrade(r.Header):
		p.serveUpgrade(w, r)
	default:
		p.serveHTTP(w, r)
	}
}

// serveHTTP forwards an absolute-form request to an allowed origin.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	scheme := strings.ToLower(r.URL.Scheme)
	if scheme != "http" && scheme != "https" {
		http.Error(w, "fastbrowser: unsupported scheme", http.StatusBadRequest)
		return
	}
	if _, ok := p.admit(w, scheme, r.URL.Host); !ok {
		return
	}

	out := r.Clone(r.Context())
	out.RequestURI = "" // client-side requests must not carry it
	out.URL.Scheme = scheme
	out.Host = r.URL.Host
	out.Header = r.Header.Clone()
	stripHopByHop(out.Header)
	if r.ContentLength == 0 {
		out.Body = http.NoBody
	}
	out.Close = false
	// RoundTrip, not a Client: redirects go back to the browser as they are, so each hop
	// is checked again.
	rt := p.transport
	if scheme == "https" {
		rt = p.tlsTrans
	}
	resp, err := rt.RoundTrip(out)
	if err != nil {
		http.Error(w, "fastbrowser: upstream unreachable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if p.up != nil && resp.StatusCode == http.StatusProxyAuthRequired {
		// The upstream proxy's own challenge: passed on, it would ask the browser for
		// credentials to this proxy.
		http.Error(w, "fastbrowser: the upstream proxy refused the request", http.StatusBadGateway)
		return
	}
	stripHopByHop(resp.Header)
	h := w.Header()
	for k, vs := range resp.Header {
		h[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	rc := http.NewResponseController(w)
	// Send the head now: a streamed response may not have a body byte for a long time.
	_ = rc.Flush()
	if _, err := io.Copy(flushWriter{w, rc}, resp.Body); err != nil {
		// The upstream body was cut (the proxy closing, the server failing): cut the
		// client's response too. Returning normally would end a chunked body cleanly and
		// pass a truncated response off as complete.
		panic(http.ErrAbortHandler)
	}
}

// serveConnect opens a tunnel to an allowed host:port. A tunnel can carry https or plain
// http (ws:// included), so either origin being allowed admits it.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || host == "" || port == "" {
		http.Error(w, "fastbrowser: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	hostport := net.JoinHostPort(strings.ToLower(host), port)
	httpsOrigin, _, ok1 := originOf("https", hostport)
	httpOrigin, _, ok2 := originOf("http", hostport)
	if !ok1 || !ok2 {
		http.Error(w, "fastbrowser: bad host", http.StatusBadRequest)
		return
	}
	if !p.allow(httpsOrigin) && !p.allow(httpOrigin) {
		p.refuse(w, Blocked{Kind: "connect", Origin: "connect://" + hostport})
		return
	}
	if p.tls != nil {
		p.interceptConnect(w, hostport)
		return
	}
	// Nothing to send upstream first: the client speaks next, through the tunnel.
	p.tunnel(w, hostport, nil, "HTTP/1.1 200 Connection Established\r\n\r\n")
}

// admit checks an absolute-form request's origin: a bad host is answered 400, a refused
// origin 403 (and recorded). It returns the host:port to dial when the origin is allowed.
func (p *Proxy) admit(w http.ResponseWriter, scheme, authority string) (string, bool) {
	origin, hostport, ok := originOf(scheme, authority)
	if !ok {
		http.Error(w, "fastbrowser: bad host", http.StatusBadRequest)
		return "", false
	}
	if !p.allow(origin) {
		p.refuse(w, Blocked{Kind: "http", Origin: origin})
		return "", false
	}
	return hostport, true
}

// serveUpgrade handles an absolute-form WebSocket handshake: checked like a request, then
// relayed as raw bytes because the connection stops being HTTP after the 101.
func (p *Proxy) serveUpgrade(w http.ResponseWriter, r *http.Request) {
	scheme := strings.ToLower(r.URL.Scheme)
	if scheme == "ws" {
		scheme = "http"
	}
	if scheme != "http" {
		// wss:// cannot be sent in absolute form: the proxy would have to speak TLS for it.
		http.Error(w, "fastbrowser: unsupported scheme", http.StatusBadRequest)
		return
	}
	hostport, ok := p.admit(w, scheme, r.URL.Host)
	if !ok {
		return
	}
	out := r.Clone(r.Context())
	out.Header = r.Header.Clone()
	// Connection and Upgrade stay: they are the handshake.
	for _, k := range []string{"Proxy-Connection", "Proxy-Authorization", "Keep-Alive"} {
		out.Header.Del(k)
	}
	out.Host = r.URL.Host
	p.tunnel(w, hostport, func(upstream net.Conn) error {
		return out.Write(upstream) // writes origin form: the path and Host, no proxy framing
	}, "")
}

// tunnel dials hostport (through the upstream proxy when there is one: a WebSocket
// handshake then goes through a CONNECT tunnel too, as Chromium sends its own), runs first
// (if any) on the new connection, hijacks the client connection, writes reply to it (if
// any) and relays bytes both ways until either side closes.
func (p *Proxy) tunnel(w http.ResponseWriter, hostport string, first func(net.Conn) error, reply string) {
	upstream, err := p.dial(p.ctx, hostport)
	if err != nil {
		http.Error(w, "fastbrowser: upstream unreachable", http.StatusBadGateway)
		return
	}
	if !p.track(upstream) {
		http.Error(w, "fastbrowser: proxy closed", http.StatusServiceUnavailable)
		return
	}
	defer p.untrack(upstream)
	if first != nil && first(upstream) != nil {
		http.Error(w, "fastbrowser: upstream write failed", http.StatusBadGateway)
		return
	}
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "fastbrowser: cannot tunnel", http.StatusInternalServerError)
		return
	}
	if !p.track(client) {
		return
	}
	defer p.untrack(client)
	// Clear any deadline the server set while reading the request.
	_ = client.SetDeadline(time.Time{})
	if reply != "" {
		if _, err := io.WriteString(client, reply); err != nil {
			return
		}
	}
	// Bytes the client sent right behind its request (an eager TLS ClientHello) sit in
	// the server's reader; they belong to the tunnel.
	var fromClient io.Reader = client
	if n := buf.Reader.Buffered(); n > 0 {
		early, _ := buf.Reader.Peek(n)
		fromClient = io.MultiReader(strings.NewReader(string(early)), client)
	}
	relay(client, upstream, fromClient)
}

// relay copies both ways; when either direction ends it closes both connections, which
// ends the other copy too, so the handler never outlives the tunnel.
func relay(client, upstream net.Conn, fromClient io.Reader) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(upstream, fromClient)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, upstream)
		done <- struct{}{}
	}()
	<-done
	_ = client.Close()
	_ = upstream.Close()
	<-done
}

// track registers a connection for Close to cut; it refuses (and closes c) once closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.tunnels[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	_ = c.Close()
	p.mu.Lock()
	delete(p.tunnels, c)
	p.mu.Unlock()
}

func (p *Proxy) refuse(w http.ResponseWriter, b Blocked) {
	p.mu.Lock()
	if !p.blockedSeen[b] && len(p.blocked) < budgets.ProxyRefusalsKept {
		p.blockedSeen[b] = true
		p.blocked = append(p.blocked, b)
	}
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusForbidden)
	_, _ = io.WriteString(w, forbiddenBody)
}

// originOf normalises scheme and an authority ("host[:port]") into scheme://host[:port]
// with a lower-case host and the scheme's default port dropped. It also returns the
// host:port to dial.
func originOf(scheme, authority string) (origin, hostport string, ok bool) {
	u := url.URL{Host: authority}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if host == "" || strings.ContainsAny(host, "/@ ") {
		return "", "", false
	}
	def := "80"
	if scheme == "https" {
		def = "443"
	}
	if port == "" {
		port = def
	}
	hostport = net.JoinHostPort(host, port)
	switch {
	case port != def:
		origin = scheme + "://" + hostport
	case strings.Contains(host, ":"):
		origin = scheme + "://[" + host + "]"
	default:
		origin = scheme + "://" + host
	}
	return origin, hostport, true
}

// hopByHop are the headers that describe one connection, not the message (RFC 9110 §7.6.1).
var hopByHop = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

func stripHopByHop(h http.Header) {
	for _, v := range h.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, k := range hopByHop {
		h.Del(k)
	}
}

func isWebSocketUpgrade(h http.Header) bool {
	for _, v := range h.Values("Upgrade") {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "websocket") {
				return true
			}
		}
	}
	return false
}

// flushWriter flushes after every write so streamed responses (event streams, long polls)
// reach the browser as they arrive rather than when a buffer fills.
type flushWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (f flushWriter) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if err == nil {
		_ = f.rc.Flush()
	}
	return n, err
}
