package egressproxy

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain gives the binary a private TMPDIR so the Chromium test's profile-leak check
// sees only this binary's profiles, and checks that none is left at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fastbrowser-egressproxy-test-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	// Only our launcher's profiles count: Chromium itself leaves org.chromium.Chromium.*
	// scratch directories in TMPDIR, which RemoveAll below deals with.
	if left, _ := filepath.Glob(filepath.Join(dir, "fastbrowser-profile-*")); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "egressproxy tests left profiles behind:", left)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// allowSet is an Allow over a fixed set of origins that also records every origin asked.
type allowSet struct {
	mu      sync.Mutex
	allowed map[string]bool
	asked   []string
}

func (a *allowSet) allow(origin string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, origin)
	return a.allowed[origin]
}

func (a *allowSet) wasAsked(origin string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Contains(a.asked, origin)
}

func startProxy(t *testing.T, allowed ...string) (*Proxy, *allowSet) {
	t.Helper()
	a := &allowSet{allowed: map[string]bool{}}
	for _, o := range allowed {
		a.allowed[o] = true
	}
	p, err := Start(a.allow)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, a
}

// proxiedClient sends everything through p; tlsConf may be nil.
func proxiedClient(t *testing.T, p *Proxy, tlsConf *tls.Config) *http.Client {
	t.Helper()
	u, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: tlsConf}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func httpOrigin(rawURL string) string { return strings.TrimSuffix(rawURL, "/") }

// countingListener counts accepted connections, to prove a refused target was never dialled.
type countingListener struct {
	net.Listener
	n atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func listen(t *testing.T) *countingListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return &countingListener{Listener: ln}
}

// echoServer accepts raw TCP connections and echoes every byte back.
func echoServer(t *testing.T) *countingListener {
	t.Helper()
	ln := listen(t)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln
}

// rawRequest dials the proxy, writes req and parses the response head.
func rawRequest(t *testing.T, p *Proxy, req string) (net.Conn, *bufio.Reader, *http.Response) {
	t.Helper()
	c, err := net.DialTimeout("tcp", p.Addr(), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading proxy response: %v", err)
	}
	return c, br, resp
}

func TestAllowedHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Origin", "yes")
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://elsewhere.invalid/", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, "%s %s %s", r.Method, r.URL.RequestURI(), body)
	}))
	defer srv.Close()
	p, _ := startProxy(t, httpOrigin(srv.URL))
	c := proxiedClient(t, p, nil)

	resp, err := c.Get(srv.URL + "/a?q=1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || string(b) != "GET /a?q=1 " || resp.Header.Get("X-Origin") != "yes" {
		t.Errorf("GET: %d %q %v", resp.StatusCode, b, resp.Header)
	}

	resp, err = c.Post(srv.URL+"/p", "text/plain", strings.NewReader("hello body"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || string(b) != "POST /p hello body" {
		t.Errorf("POST: %d %q", resp.StatusCode, b)
	}

	// Redirects come back as they are, so the browser re-asks (and the proxy re-checks).
	resp, err = c.Get(srv.URL + "/redirect")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://elsewhere.invalid/" {
		t.Errorf("redirect: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if len(p.Blocked()) != 0 {
		t.Errorf("Blocked = %v, want none", p.Blocked())
	}
}

func TestRefusedHTTP(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	p, _ := startProxy(t, "http://allowed.example")
	c := proxiedClient(t, p, nil)
	for range 2 {
		resp, err := c.Get(srv.URL + "/secret?token=x")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "fastbrowser: origin not allowed") {
			t.Errorf("got %d %q, want 403", resp.StatusCode, b)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("refused origin's handler ran %d times", hits.Load())
	}
	want := []Blocked{{Kind: "http", Origin: httpOrigin(srv.URL)}}
	if got := p.Blocked(); !slices.Equal(got, want) {
		t.Errorf("Blocked = %v, want %v (deduplicated, no path)", got, want)
	}
}

func TestOriginNormalised(t *testing.T) {
	for _, c := range []struct{ scheme, in, want string }{
		{"http", "Example.COM:80", "http://example.com"},
		{"http", "example.com", "http://example.com"},
		{"http", "example.com:8080", "http://example.com:8080"},
		{"https", "example.com:443", "https://example.com"},
		{"https", "example.com:80", "https://example.com:80"},
		{"http", "[::1]:80", "http://[::1]"},
		{"http", "[::1]:81", "http://[::1]:81"},
	} {
		if got, _, ok := originOf(c.scheme, c.in); !ok || got != c.want {
			t.Errorf("originOf(%q, %q) = %q, %v; want %q", c.scheme, c.in, got, ok, c.want)
		}
	}
}

func TestOriginFormIsBadRequest(t *testing.T) {
	p, _ := startProxy(t)
	resp, err := http.Get(p.URL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("origin-form request: %d, want 400", resp.StatusCode)
	}
}

func TestConnectAllowedTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secure "+r.URL.Path)
	}))
	defer srv.Close()
	p, asked := startProxy(t, httpOrigin(srv.URL)) // "https://127.0.0.1:PORT"
	tlsConf := srv.Client().Transport.(*http.Transport).TLSClientConfig
	c := proxiedClient(t, p, tlsConf)
	resp, err := c.Get(srv.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "secure /x" {
		t.Errorf("got %d %q", resp.StatusCode, b)
	}
	if !asked.wasAsked(httpOrigin(srv.URL)) {
		t.Errorf("the https origin was never checked: %v", asked.asked)
	}
}

func TestConnectRefused(t *testing.T) {
	ln := listen(t)
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Listener.Close()
	srv.Listener = ln
	srv.StartTLS()
	defer srv.Close()
	p, _ := startProxy(t, "https://allowed.example")

	_, _, resp := rawRequest(t, p, "CONNECT "+ln.Addr().String()+" HTTP/1.1\r\nHost: "+ln.Addr().String()+"\r\n\r\n")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("CONNECT: %d, want 403", resp.StatusCode)
	}
	c := proxiedClient(t, p, srv.Client().Transport.(*http.Transport).TLSClientConfig)
	if resp, err := c.Get(srv.URL + "/"); err == nil {
		resp.Body.Close()
		t.Errorf("https through a refused CONNECT succeeded: %d", resp.StatusCode)
	}
	// The proxy refuses a CONNECT before dialing: by its 403 no connection can be on its way.
	if n := ln.n.Load(); n != 0 {
		t.Errorf("refused target accepted %d connections", n)
	}
	want := []Blocked{{Kind: "connect", Origin: "connect://" + ln.Addr().String()}}
	if got := p.Blocked(); !slices.Equal(got, want) {
		t.Errorf("Blocked = %v, want %v", got, want)
	}
}

// handshake is a WebSocket opening handshake; the echo target sends it straight back,
// which is enough to prove bytes cross the relay untouched in both directions.
const handshake = "GET /chat HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
	"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

func TestWebSocketThroughConnect(t *testing.T) {
	echo := echoServer(t)
	addr := echo.Addr().String()
	// ws:// is tunnelled, so the http origin alone admits the CONNECT.
	p, _ := startProxy(t, "http://"+addr)
	c, br, resp := rawRequest(t, p, "CONNECT "+addr+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %d", resp.StatusCode)
	}
	for _, msg := range []string{handshake, "\x81\x05hello"} {
		if _, err := io.WriteString(c, msg); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(msg))
		if _, err := io.ReadFull(br, got); err != nil || string(got) != msg {
			t.Fatalf("echo through tunnel: %q, %v", got, err)
		}
	}
}

func TestWebSocketAbsoluteForm(t *testing.T) {
	echo := echoServer(t)
	addr := echo.Addr().String()
	p, _ := startProxy(t, "http://"+addr)
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	req := strings.Replace(handshake, "GET /chat", "GET http://"+addr+"/chat", 1)
	req = strings.Replace(req, "\r\n\r\n", "\r\nProxy-Connection: keep-alive\r\n\r\n", 1)
	io.WriteString(c, req)
	// The echo target returns what the proxy sent it: the request in origin form, with the
	// handshake headers kept and the proxy's own headers gone.
	got, err := http.ReadRequest(bufio.NewReader(c))
	if err != nil {
		t.Fatal(err)
	}
	if got.RequestURI != "/chat" || got.Header.Get("Upgrade") != "websocket" ||
		got.Header.Get("Sec-WebSocket-Key") == "" || got.Header.Get("Proxy-Connection") != "" {
		t.Errorf("upstream saw %s %v", got.RequestURI, got.Header)
	}

	// Refused: 403, never dialled.
	refused := listen(t)
	defer refused.Close()
	req = strings.Replace(handshake, "GET /chat", "GET http://"+refused.Addr().String()+"/chat", 1)
	_, _, resp := rawRequest(t, p, req)
	if resp.StatusCode != http.StatusForbidden || refused.n.Load() != 0 {
		t.Errorf("refused upgrade: %d, %d connections", resp.StatusCode, refused.n.Load())
	}
	if got := p.Blocked(); !slices.Contains(got, Blocked{"http", "http://" + refused.Addr().String()}) {
		t.Errorf("Blocked = %v", got)
	}
}

func TestHopByHopStripped(t *testing.T) {
	seen := make(chan http.Header, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		w.Header().Set("Connection", "X-Resp-Private")
		w.Header().Set("X-Resp-Private", "1")
		w.Header().Set("Keep-Alive", "timeout=5")
		w.Header().Set("X-Resp-Kept", "1")
	}))
	defer srv.Close()
	p, _ := startProxy(t, httpOrigin(srv.URL))
	host := strings.TrimPrefix(srv.URL, "http://")
	_, _, resp := rawRequest(t, p, "GET "+srv.URL+"/h HTTP/1.1\r\nHost: "+host+"\r\n"+
		"Connection: X-Private, keep-alive\r\nX-Private: secret\r\nKeep-Alive: timeout=5\r\n"+
		"Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eDp5\r\nTE: trailers\r\n"+
		"Trailer: X-T\r\nUpgrade: h2c\r\nX-Kept: 1\r\n\r\n")
	resp.Body.Close()
	h := <-seen
	for _, k := range []string{"X-Private", "Keep-Alive", "Proxy-Connection", "Proxy-Authorization", "Te", "Trailer", "Upgrade"} {
		if v := h.Get(k); v != "" {
			t.Errorf("origin received %s: %q", k, v)
		}
	}
	if h.Get("X-Kept") != "1" {
		t.Errorf("end-to-end header dropped: %v", h)
	}
	if resp.Header.Get("X-Resp-Private") != "" || resp.Header.Get("Keep-Alive") != "" || resp.Header.Get("X-Resp-Kept") != "1" {
		t.Errorf("client received %v", resp.Header)
	}
}

func TestCloseEndsTunnelsWithoutLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	// A subtest, so its cleanups (the echo server) have run before goroutines are counted.
	t.Run("close", func(t *testing.T) {
		echo := echoServer(t)
		release := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer slow.Close()
		defer close(release)

		a := &allowSet{allowed: map[string]bool{"http://" + echo.Addr().String(): true, httpOrigin(slow.URL): true}}
		p, err := Start(a.allow)
		if err != nil {
			t.Fatal(err)
		}
		// An open tunnel...
		addr := echo.Addr().String()
		c, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "CONNECT "+addr+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
		br := bufio.NewReader(c)
		if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
			t.Fatalf("CONNECT: %v %v", resp, err)
		}
		io.WriteString(c, "ping")
		if b := make([]byte, 4); func() bool { _, err := io.ReadFull(br, b); return err != nil }() {
			t.Fatal("no echo")
		}
		// ...and a forwarded response still streaming.
		u, _ := url.Parse(p.URL())
		tr := &http.Transport{Proxy: http.ProxyURL(u)}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr}).Get(slow.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()

		// Close reports handlers it waited closeWait for as an error: none may be left.
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if _, err := br.ReadByte(); err == nil {
			t.Error("tunnel still open after Close")
		}
		if _, err := io.ReadAll(resp.Body); err == nil {
			t.Error("streamed response ended cleanly after Close; want it cut")
		}
		if err := p.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := net.DialTimeout("tcp", p.Addr(), time.Second); err == nil {
			t.Error("still listening after Close")
		}
	})
	// Let closed connections' goroutines finish (bounded, with room for a loaded machine).
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines: %d before, %d after\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}
