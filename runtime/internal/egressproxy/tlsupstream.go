package egressproxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TLSOptions turn on interception (intercept.go): the proxy speaks TLS to the browser with
// CA's leaves and to the destination with its own client, which verifies the destination
// against Roots and presents ClientCertificate's answer for the destination's origin.
type TLSOptions struct {
	// CA mints the certificates the browser sees; only a browser that pins its SPKI accepts
	// them.
	CA *InterceptCA
	// Roots verify destinations: the system's CAs and the trusted ones.
	Roots *x509.CertPool
	// ClientCertificate is the certificate to present to an exact https origin
	// ("https://host[:port]"), nil for none. Nil: none anywhere.
	ClientCertificate func(origin string) *tls.Certificate
}

// TLSFailure is one TLS connection to a destination that failed: its origin and why, in
// words that never hold key material or a certificate's contents. Seq orders failures
// (TLSFailuresAfter).
type TLSFailure struct {
	Seq    uint64
	Origin string
	Reason string
}

// tlsFailuresKept bounds the failures the proxy remembers; older ones are dropped.
const tlsFailuresKept = 64

// TLSVerified reports whether the last TLS handshake the proxy made with origin (an https
// origin as the proxy writes it, see OriginOfHTTPS) verified the destination's certificate
// for its host. False without interception, or before any handshake with it.
func (p *Proxy) TLSVerified(origin string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.verified[origin]
}

// Intercepts reports whether the proxy terminates TLS (Options.TLS was given).
func (p *Proxy) Intercepts() bool { return p.tls != nil }

// TLSFailuresAfter returns the failures recorded after seq (0: all kept), oldest first, and
// the sequence number to ask after next time.
func (p *Proxy) TLSFailuresAfter(seq uint64) ([]TLSFailure, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []TLSFailure
	for _, f := range p.tlsFailures {
		if f.Seq > seq {
			out = append(out, f)
		}
	}
	return out, p.tlsSeq
}

// OriginOfHTTPS is the https origin of a host[:port] authority, in the form TLSVerified
// takes ("" when it is not a usable authority).
func OriginOfHTTPS(authority string) string {
	origin, _, ok := originOf("https", authority)
	if !ok {
		return ""
	}
	return origin
}

// noteTLS records the outcome of a handshake with origin (err nil: verified).
func (p *Proxy) noteTLS(origin string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.verified[origin] = err == nil
	if err == nil {
		return
	}
	p.noteTLSFailureLocked(origin, tlsReason(err, p.hasClientCert(origin)))
}

// noteTLSFailureLocked appends a failure; p.mu is held.
func (p *Proxy) noteTLSFailureLocked(origin, reason string) {
	p.tlsSeq++
	p.tlsFailures = append(p.tlsFailures, TLSFailure{Seq: p.tlsSeq, Origin: origin, Reason: reason})
	if n := len(p.tlsFailures); n > tlsFailuresKept {
		p.tlsFailures = append(p.tlsFailures[:0:0], p.tlsFailures[n-tlsFailuresKept:]...)
	}
}

func (p *Proxy) hasClientCert(origin string) bool {
	return p.tls.ClientCertificate != nil && p.tls.ClientCertificate(origin) != nil
}

// dialTLS opens a verified TLS connection to hostport for the interception transport
// (directly, or through the upstream proxy) and records how the handshake went. The
// connection it returns also records a rejection the server sends after the handshake:
// under TLS 1.3 a server refuses a client certificate (or its absence) only then.
func (p *Proxy) dialTLS(ctx context.Context, hostport string) (net.Conn, error) {
	origin := OriginOfHTTPS(hostport)
	host, _, _ := net.SplitHostPort(hostport)
	raw, err := p.dial(ctx, hostport)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{
		ServerName: host, // an IP literal is verified against the certificate's IP SANs
		RootCAs:    p.tls.Roots,
		NextProtos: []string{"http/1.1"},
		MinVersion: tls.VersionTLS12,
		GetClientCertificate: func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			if p.tls.ClientCertificate != nil {
				if c := p.tls.ClientCertificate(origin); c != nil {
					return c, nil
				}
			}
			return &tls.Certificate{}, nil // none: the server decides whether that will do
		},
	}
	hctx, cancel := context.WithTimeout(ctx, budgets.ProxyDial)
	defer cancel()
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(hctx); err != nil {
		_ = raw.Close()
		p.noteTLS(origin, err)
		return nil, err
	}
	p.noteTLS(origin, nil)
	return &watchedConn{Conn: conn, p: p, origin: origin}, nil
}

// watchedConn records the first TLS alert its server sends after the handshake.
type watchedConn struct {
	net.Conn
	p      *Proxy
	origin string
	once   bool
}

func (c *watchedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if err != nil && !c.once && isRemoteAlert(err) {
		c.once = true
		c.p.mu.Lock()
		c.p.verified[c.origin] = false // the connection the page would have used did not hold
		c.p.noteTLSFailureLocked(c.origin, tlsReason(err, c.p.hasClientCert(c.origin)))
		c.p.mu.Unlock()
	}
	return n, err
}

func isRemoteAlert(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "remote error"
}

// tlsReason says why a TLS connection failed, in fixed words: what Go's verifier or the
// server's alert said, never a certificate's contents or key material.
func tlsReason(err error, clientCert bool) string {
	var unknown x509.UnknownAuthorityError
	var name x509.HostnameError
	var invalid x509.CertificateInvalidError
	var op *net.OpError
	switch {
	case errors.As(err, &unknown):
		return "unknown authority: its certificate is not signed by a trusted CA (give the CA with --trusted-ca or tls.trustedCAs)"
	case errors.As(err, &name):
		return "name mismatch: its certificate is not valid for this host"
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "expired: its certificate is expired or not yet valid"
	case errors.As(err, &invalid):
		return "its certificate is not valid for a server"
	case errors.As(err, &op) && op.Op == "remote error":
		alert := strings.TrimPrefix(op.Err.Error(), "tls: ")
		switch {
		case alert == "certificate required" && !clientCert:
			return "client certificate required: the server asks for one and none is configured for this origin"
		case alert == "certificate required":
			return "client certificate rejected: the server did not accept the configured certificate (certificate required)"
		case clientCert && isCertificateAlert(alert):
			return "client certificate rejected: the server did not accept the configured certificate (" + alert + ")"
		case isCertificateAlert(alert):
			return "client certificate required: the server refused the connection without one (" + alert + ")"
		}
		return "the server ended the TLS connection (" + alert + ")"
	case errors.Is(err, context.DeadlineExceeded):
		return "the TLS handshake did not finish within " + budgets.ProxyDial.String()
	}
	return "the TLS handshake failed"
}

// isCertificateAlert: alerts a server sends about the client's certificate (RFC 8446 §6.2).
func isCertificateAlert(alert string) bool {
	switch alert {
	case "bad certificate", "unsupported certificate", "certificate revoked", "certificate expired",
		"certificate unknown", "unknown certificate authority", "access denied", "handshake failure":
		return true
	}
	return false
}

// interceptTransport is the round-tripper of intercepted requests: every https
// connection is dialTLS's, HTTP/1.1 (a WebSocket upgrade included; DialTLSContext without
// ForceAttemptHTTP2 keeps HTTP/2 off).
func (p *Proxy) interceptTransport() *http.Transport {
	t := newTransport((&net.Dialer{Timeout: budgets.ProxyDial}).DialContext)
	t.DialTLSContext = func(ctx context.Context, _, addr string) (net.Conn, error) { return p.dialTLS(ctx, addr) }
	return t
}
