package runtimetest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Upstream is an HTTP proxy standing for a corporate one between the egress proxy and the
// sites (runtime.Options.UpstreamProxy): it tunnels CONNECT and forwards absolute-form
// requests, directly, and records each request it got with its Proxy-Authorization. With
// Refuse set it answers every request 407 instead, reaching nothing.
type Upstream struct {
	*httptest.Server
	Refuse bool

	mu   sync.Mutex
	seen []UpstreamRequest
}

// UpstreamRequest is one request the upstream proxy got: CONNECT host:port, or a method
// and an absolute URL, with the Proxy-Authorization header it carried.
type UpstreamRequest struct {
	Method, Target, Auth string
}

// NewUpstream starts an upstream proxy on a loopback port; the caller closes it.
func NewUpstream() *Upstream {
	u := &Upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(u.serve))
	return u
}

// Seen is every request so far, oldest first.
func (u *Upstream) Seen() []UpstreamRequest {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]UpstreamRequest(nil), u.seen...)
}

func (u *Upstream) serve(w http.ResponseWriter, r *http.Request) {
	target := r.URL.String()
	if r.Method == http.MethodConnect {
		target = r.Host
	}
	u.mu.Lock()
	u.seen = append(u.seen, UpstreamRequest{Method: r.Method, Target: target, Auth: r.Header.Get("Proxy-Authorization")})
	u.mu.Unlock()
	if u.Refuse {
		w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
		http.Error(w, "proxy authentication required", http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		u.tunnel(w, r.Host)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Header.Del("Proxy-Authorization")
	resp, err := (&http.Transport{}).RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

func (u *Upstream) tunnel(w http.ResponseWriter, hostport string) {
	dst, err := net.DialTimeout("tcp", hostport, 5*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer dst.Close()
	c, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.SetDeadline(time.Time{})
	_, _ = io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n")
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(dst, buf); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, dst); done <- struct{}{} }()
	<-done
}
