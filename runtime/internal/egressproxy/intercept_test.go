package egressproxy

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startIntercepting starts a proxy that intercepts with a fresh CA, verifying destinations
// against roots, and a client that trusts that CA alone (as the pinned browser does).
func startIntercepting(t *testing.T, roots *x509.CertPool, allowed ...string) (*Proxy, *http.Client, *InterceptCA) {
	t.Helper()
	ca, err := NewInterceptCA()
	if err != nil {
		t.Fatal(err)
	}
	a := &allowSet{allowed: map[string]bool{}}
	for _, o := range allowed {
		a.allowed[o] = true
	}
	p, err := StartWith(a.allow, Options{TLS: &TLSOptions{CA: ca, Roots: roots}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	browserRoots := x509.NewCertPool()
	browserRoots.AddCert(ca.cert)
	return p, proxiedClient(t, p, &tls.Config{RootCAs: browserRoots}), ca
}

func poolOf(c *x509.Certificate) *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(c)
	return p
}

// TestInterceptVerifies: a destination whose CA is trusted is reached; the client sees the
// interception CA's leaf for the host, and the origin counts as verified.
func TestInterceptVerifies(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "secure "+r.URL.Path+" "+r.Host)
	}))
	defer srv.Close()
	origin := httpOrigin(srv.URL)
	p, c, ca := startIntercepting(t, poolOf(srv.Certificate()), origin)
	resp, err := c.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	host := strings.TrimPrefix(origin, "https://")
	if resp.StatusCode != 200 || string(b) != "secure /x "+host {
		t.Fatalf("got %d %q", resp.StatusCode, b)
	}
	if got := resp.TLS.PeerCertificates[0]; got.Issuer.CommonName != ca.cert.Subject.CommonName || len(got.IPAddresses) != 1 {
		t.Fatalf("the client saw %q issued by %q, not the interception CA's leaf", got.Subject.CommonName, got.Issuer.CommonName)
	}
	if !p.TLSVerified(origin) {
		t.Fatal("the origin is not reported verified")
	}
	if f, _ := p.TLSFailuresAfter(0); len(f) != 0 {
		t.Fatalf("failures: %+v", f)
	}
}

// TestInterceptRefusesUnverified: an untrusted CA and a name the certificate does not hold
// each fail the client's request with no answer from the proxy, recorded with the reason.
func TestInterceptRefusesUnverified(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "must not be seen") }))
	defer srv.Close()
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	byName := "https://localhost:" + strconv.Itoa(port) // httptest's leaf holds 127.0.0.1 and example.com
	for _, tc := range []struct {
		name, url, why string
		roots          *x509.CertPool
	}{
		{"unknown authority", srv.URL, "unknown authority", x509.NewCertPool()},
		{"name mismatch", byName, "name mismatch", poolOf(srv.Certificate())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, c, _ := startIntercepting(t, tc.roots, httpOrigin(tc.url))
			resp, err := c.Get(tc.url + "/")
			if err == nil {
				resp.Body.Close()
				t.Fatalf("the request passed: %d", resp.StatusCode)
			}
			f, seq := p.TLSFailuresAfter(0)
			if len(f) == 0 || f[0].Origin != httpOrigin(tc.url) || !strings.HasPrefix(f[0].Reason, tc.why) {
				t.Fatalf("failures %+v, want %s for %s", f, tc.why, httpOrigin(tc.url))
			}
			if again, _ := p.TLSFailuresAfter(seq); len(again) != 0 {
				t.Fatalf("failures after %d: %+v", seq, again)
			}
			if p.TLSVerified(httpOrigin(tc.url)) {
				t.Fatal("reported verified")
			}
		})
	}
}

// TestInterceptWebSocket: a wss:// handshake goes through the interception and the
// connection relays bytes both ways after the 101; a ws:// tunnel (no TLS) is relayed as is.
func TestInterceptWebSocket(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "websocket" {
			http.Error(w, "upgrade expected", http.StatusBadRequest)
			return
		}
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
		_, _ = io.Copy(conn, brw)
	}))
	defer srv.Close()
	echo := echoServer(t)
	addr := strings.TrimPrefix(srv.URL, "https://")
	p, _, ca := startIntercepting(t, poolOf(srv.Certificate()), srv.URL, "http://"+echo.Addr().String())

	c, br, resp := rawRequest(t, p, "CONNECT "+addr+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %d", resp.StatusCode)
	}
	tc := tls.Client(&bufferedConn{Conn: c, r: br}, &tls.Config{RootCAs: poolOf(ca.cert), ServerName: "127.0.0.1"})
	_ = tc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(tc, strings.Replace(handshake, "Host: h", "Host: "+addr, 1)); err != nil {
		t.Fatal(err)
	}
	tbr := bufio.NewReader(tc)
	up, err := http.ReadResponse(tbr, nil)
	if err != nil || up.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("wss handshake through the interception: %v %v", up, err)
	}
	msg := "\x81\x05hello"
	if _, err := io.WriteString(tc, msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(tbr, got); err != nil || string(got) != msg {
		t.Fatalf("echo after the 101: %q, %v", got, err)
	}

	eaddr := echo.Addr().String()
	pc, pbr, presp := rawRequest(t, p, "CONNECT "+eaddr+" HTTP/1.1\r\nHost: "+eaddr+"\r\n\r\n")
	if presp.StatusCode != 200 {
		t.Fatalf("plain CONNECT: %d", presp.StatusCode)
	}
	if _, err := io.WriteString(pc, handshake); err != nil {
		t.Fatal(err)
	}
	plain := make([]byte, len(handshake))
	if _, err := io.ReadFull(pbr, plain); err != nil || string(plain) != handshake {
		t.Fatalf("a tunnel without TLS was not relayed as is: %q, %v", plain, err)
	}
}
