package runtime

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TLS trust beyond the system's (Options.TLS) is carried by the egress proxy, not by the
// browser: Chromium on Linux has no per-browser CA flag (its trust store is the user's NSS
// database) and selects client certificates only through its UI or machine-wide policy.
// With a TLSTrust the proxy ends the browser's TLS with an ephemeral CA that lives in this
// process's memory and that only browsers launched with its SPKI pinned accept
// (--ignore-certificate-errors-spki-list, LaunchOptions), and makes each connection to the
// destination itself: verified against the system's and the trusted CAs for its host name,
// presenting the client certificate configured for its exact origin. Without a TLSTrust
// nothing changes: CONNECT tunnels are relayed as they were.

// TLSTrust is the CAs a session's browser trusts and the client certificates it presents,
// with the ephemeral CA the egress proxy intercepts with. Make it with NewTLSTrust; share one
// between an Allocator's LaunchOptions and the sessions opened in it.
type TLSTrust struct {
	roots   *x509.CertPool
	clients map[string]*tls.Certificate // exact https origin → certificate and key
	ca      *egressproxy.InterceptCA
}

// ClientCertificate is a certificate (with its key) to present to one exact https origin.
type ClientCertificate struct {
	Origin      string
	Certificate tls.Certificate
}

// NewTLSTrust is the trust of the system's CAs plus trusted, presenting clients (by exact
// origin; two for one origin are refused). Its interception CA is made here, in memory.
func NewTLSTrust(trusted []*x509.Certificate, clients []ClientCertificate) (*TLSTrust, error) {
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool() // no system store here: the trusted CAs alone
	}
	for _, c := range trusted {
		roots.AddCert(c)
	}
	t := &TLSTrust{roots: roots, clients: map[string]*tls.Certificate{}}
	for i, c := range clients {
		origin, err := ClientOrigin(c.Origin)
		if err != nil {
			return nil, fmt.Errorf("client certificate %d: %w", i, err)
		}
		if t.clients[origin] != nil {
			return nil, fmt.Errorf("client certificate %d: a second certificate for %s", i, origin)
		}
		cert := c.Certificate
		t.clients[origin] = &cert
	}
	if t.ca, err = egressproxy.NewInterceptCA(); err != nil {
		return nil, fmt.Errorf("the interception CA could not be made: %w", err)
	}
	return t, nil
}

// ClientOrigin checks that s is an https origin (scheme, host, optional port; no path,
// query, credentials) and returns it as the proxy writes origins (lower-case host, port 443
// dropped).
func ClientOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("expected an https origin such as https://host:8443")
	}
	origin := egressproxy.OriginOfHTTPS(u.Host)
	if origin == "" {
		return "", errors.New("expected an https origin such as https://host:8443")
	}
	return origin, nil
}

// ReadTrustedCAs reads the CA certificates of a PEM file (every CERTIFICATE block).
func ReadTrustedCAs(path string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s", path)
	}
	var out []*x509.Certificate
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s holds a certificate that cannot be parsed", path)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return out, nil
}

// ReadClientCertificate reads a PEM certificate (chain) and its PEM private key. Its errors
// name the files, never their contents.
func ReadClientCertificate(certFile, keyFile string) (tls.Certificate, error) {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("cannot read %s", certFile)
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("cannot read %s", keyFile)
	}
	c, err := tls.X509KeyPair(certPEM, keyPEM)
	clear(keyPEM)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("%s and %s are not a PEM certificate and its matching PEM private key", certFile, keyFile)
	}
	return c, nil
}

// spkiFlag is the launch flag that makes a browser accept the trust's interception CA and
// nothing more: Chromium ignores certificate errors only for chains holding a certificate
// whose SPKI hash is listed, and only that process holds the CA's key.
func (t *TLSTrust) spkiFlag() string {
	return "--ignore-certificate-errors-spki-list=" + t.ca.SPKIHash()
}

// proxyOptions is the trust as the egress proxy takes it.
func (t *TLSTrust) proxyOptions() *egressproxy.TLSOptions {
	return &egressproxy.TLSOptions{CA: t.ca, Roots: t.roots, ClientCertificate: func(origin string) *tls.Certificate { return t.clients[origin] }}
}

// checkTLS refuses TLS trust where the egress proxy cannot carry it: a browser fastbrowser
// did not launch (nothing pins the interception CA in it), an Allocator whose browser was
// launched for another trust, or the proxy turned off.
func checkTLS(opts Options) error {
	if opts.TLS == nil {
		return nil
	}
	switch {
	case opts.Allocator == nil && opts.CDPURL != "", opts.Allocator != nil && opts.Allocator.Attached():
		return transport.Invalid("", "tls", "trusted CAs and client certificates need a browser fastbrowser launches (the egress proxy carries them, and only a launched browser trusts it); with cdpURL the session attaches to one")
	case opts.Allocator != nil && !opts.Allocator.trusts(opts.TLS):
		return transport.Invalid("", "tls", "the Allocator's browser was not launched for this TLS trust: launch it with LaunchOptions of the same Options.TLS")
	case opts.EdgeProxy == EdgeProxyOff:
		return transport.Invalid("", "tls", "trusted CAs and client certificates are carried by the egress proxy, which edgeProxy turns off")
	}
	return nil
}

// tlsNeedsProxy is the error of a session whose TLS trust has no egress proxy to carry it
// (startProxy does not start one: an environment proxy under a "*" base).
func tlsNeedsProxy() error {
	return transport.Invalid("", "tls", "trusted CAs and client certificates are carried by the egress proxy, which does not run here: this environment names a proxy (HTTPS_PROXY…); give it as the upstream proxy")
}
