package egressproxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Interception (Options.TLS): Chromium on Linux has no per-browser way to trust a CA (its
// store is the user's NSS database) and picks client certificates only through its UI or
// machine-wide policy, so a browser that must trust given CAs or present client
// certificates has its TLS ended here instead. A CONNECT that carries TLS is answered with
// a leaf of the InterceptCA, which only that browser accepts (it was launched pinning the
// CA's SPKI); each request in it is sent on by the proxy's own TLS client (dialTLS), which
// verifies the destination against the system's and the trusted CAs and presents the
// origin's client certificate. A failure there closes the browser's connection with no
// answer, so the browser sees a failed load, never a page the proxy made up; its reason is
// recorded (TLSFailuresAfter). A tunnel that does not carry TLS (ws://) is relayed as is.

// interceptor serves the decrypted side of intercepted tunnels: one HTTP server for all of
// them, fed by a listener that the CONNECT handler hands each connection to.
type interceptor struct {
	srv   *http.Server
	ln    *handoffListener
	trans *http.Transport
}

func (p *Proxy) startInterceptor() {
	trans := p.interceptTransport()
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			// The destination is the tunnel's, whatever Host the request names; Host is sent as
			// the browser wrote it.
			pr.Out.URL.Scheme = "https"
			pr.Out.URL.Host = hostportOf(pr.In.Context())
		},
		Transport:     trans,
		FlushInterval: -1, // streamed responses reach the browser as they arrive
		ErrorLog:      log.New(io.Discard, "", 0),
		ErrorHandler: func(http.ResponseWriter, *http.Request, error) {
			// No made-up answer: the browser's load fails as the destination's did. Why is
			// recorded by dialTLS or the connection it returned.
			panic(http.ErrAbortHandler)
		},
	}
	in := &interceptor{ln: newHandoffListener(p.ln.Addr()), trans: trans}
	in.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := OriginOfHTTPS(hostportOf(r.Context()))
			if !p.allow(origin) { // the policy in force now, which may have narrowed since the CONNECT
				p.refuse(w, Blocked{Kind: "http", Origin: origin})
				return
			}
			rp.ServeHTTP(w, r)
		}),
		BaseContext: func(net.Listener) context.Context { return p.ctx },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if ic, ok := c.(*interceptedConn); ok {
				return context.WithValue(ctx, hostportKey{}, ic.hostport)
			}
			return ctx
		},
		ReadHeaderTimeout: budgets.ProxyReadHeader,
		IdleTimeout:       budgets.ProxyIdleConn,
		TLSNextProto:      map[string]func(*http.Server, *tls.Conn, http.Handler){}, // HTTP/1.1 only
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() { _ = in.srv.Serve(in.ln) }()
	p.intercept = in
}

func (in *interceptor) close() {
	_ = in.ln.Close()
	_ = in.srv.Close()
	in.trans.CloseIdleConnections()
}

type hostportKey struct{}

func hostportOf(ctx context.Context) string {
	hp, _ := ctx.Value(hostportKey{}).(string)
	return hp
}

// interceptConnect answers an admitted CONNECT to hostport: 200, then, if the browser starts
// TLS, ends it with a leaf for the host and hands the connection to the interceptor;
// anything else is relayed to hostport as a plain tunnel.
func (p *Proxy) interceptConnect(w http.ResponseWriter, hostport string) {
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "fastbrowser: cannot tunnel", http.StatusInternalServerError)
		return
	}
	if !p.track(client) {
		return
	}
	handedOff := false
	defer func() {
		if !handedOff {
			p.untrack(client)
		}
	}()
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	_ = client.SetDeadline(time.Now().Add(budgets.ProxyReadHeader))
	first, err := buf.Reader.Peek(1)
	if err != nil {
		return
	}
	from := &readerConn{Conn: client, r: buf.Reader}
	if first[0] != tlsHandshakeRecord {
		_ = client.SetDeadline(time.Time{})
		upstream, err := p.dial(p.ctx, hostport)
		if err != nil || !p.track(upstream) {
			return
		}
		defer p.untrack(upstream)
		relay(client, upstream, from)
		return
	}
	host, _, _ := net.SplitHostPort(hostport)
	leaf, err := p.tls.CA.Leaf(host)
	if err != nil {
		return
	}
	// The tunnel's host, not the ClientHello's name: Chromium sends none for an IP literal,
	// and the tunnel's destination is what the leaf stands for.
	tc := tls.Server(from, &tls.Config{Certificates: []tls.Certificate{*leaf}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(p.ctx); err != nil {
		return
	}
	_ = client.SetDeadline(time.Time{})
	if p.forget(client) && p.intercept.ln.hand(&interceptedConn{Conn: tc, hostport: hostport}) {
		handedOff = true
		return
	}
	_ = tc.Close()
}

// tlsHandshakeRecord is the first byte of every TLS connection (a handshake record).
const tlsHandshakeRecord = 0x16

// interceptedConn is a decrypted browser connection and the tunnel's destination.
type interceptedConn struct {
	net.Conn
	hostport string
}

// readerConn reads through the hijacked connection's buffer (bytes the browser sent right
// behind its CONNECT are there).
type readerConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *readerConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// handoffListener is a net.Listener whose connections are handed to it.
type handoffListener struct {
	addr  net.Addr
	conns chan net.Conn
	mu    sync.Mutex
	done  bool
	stop  chan struct{}
}

func newHandoffListener(addr net.Addr) *handoffListener {
	return &handoffListener{addr: addr, conns: make(chan net.Conn), stop: make(chan struct{})}
}

// hand gives c to the server; false once the listener is closed (c is then the caller's).
func (l *handoffListener) hand(c net.Conn) bool {
	select {
	case l.conns <- c:
		return true
	case <-l.stop:
		return false
	}
}

func (l *handoffListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.stop:
		return nil, net.ErrClosed
	}
}

func (l *handoffListener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.done = true
		close(l.stop)
	}
	return nil
}

func (l *handoffListener) Addr() net.Addr { return l.addr }

// forget stops tracking c without closing it: the interceptor's server owns it now and
// closes it when the proxy closes. False once the proxy is closed.
func (p *Proxy) forget(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.tunnels, c)
	return !p.closed
}

// errNoIntercept refuses TLSOptions without the CA the browser pins.
var errNoIntercept = errors.New("egressproxy: interception needs a CA")
