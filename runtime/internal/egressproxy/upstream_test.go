package egressproxy_test

import (
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/internal/egressproxy"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

const upstreamPassword = "s3cret-upstream-pw"

var upstreamAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte("fb:"+upstreamPassword))

// viaUpstream starts an egress proxy that admits allowed and dials through up, and a client
// that sends everything to the egress proxy (trusting tlsConf's roots, when given).
func viaUpstream(t *testing.T, up string, tlsConf *tls.Config, allowed ...string) *http.Client {
	t.Helper()
	u, err := url.Parse(up)
	if err != nil {
		t.Fatal(err)
	}
	p, err := egressproxy.StartWith(func(origin string) bool {
		for _, a := range allowed {
			if a == origin {
				return true
			}
		}
		return false
	}, egressproxy.Options{Upstream: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	pu, _ := url.Parse(p.URL())
	tr := &http.Transport{Proxy: http.ProxyURL(pu), TLSClientConfig: tlsConf}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 3 * budgets.ProxyDial}
}

func upstreamURL(up *runtimetest.Upstream) string {
	return "http://fb:" + upstreamPassword + "@" + up.Listener.Addr().String()
}

// seenBy is the site's record of the Proxy-Authorization headers that reached it.
type seenBy struct {
	mu    sync.Mutex
	auths []string
}

func (s *seenBy) handler(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.auths = append(s.auths, r.Header.Get("Proxy-Authorization"))
	s.mu.Unlock()
	fmt.Fprint(w, "hello from the site")
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestUpstreamCarriesAdmittedTraffic: a plain request goes to the upstream proxy in absolute
// form and an https one through a CONNECT tunnel, each with the upstream's credentials, which
// never reach the site.
func TestUpstreamCarriesAdmittedTraffic(t *testing.T) {
	t.Parallel()
	up := runtimetest.NewUpstream()
	defer up.Close()
	var plainSeen, tlsSeen seenBy
	plain := httptest.NewServer(http.HandlerFunc(plainSeen.handler))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(tlsSeen.handler))
	defer secure.Close()
	secureHost := strings.TrimPrefix(secure.URL, "https://")
	c := viaUpstream(t, upstreamURL(up), secure.Client().Transport.(*http.Transport).TLSClientConfig,
		plain.URL, "https://"+secureHost)

	if code, body := get(t, c, plain.URL+"/page?q=1"); code != 200 || body != "hello from the site" {
		t.Fatalf("plain: %d %q", code, body)
	}
	if code, body := get(t, c, secure.URL+"/"); code != 200 || body != "hello from the site" {
		t.Fatalf("https: %d %q", code, body)
	}
	want := []runtimetest.UpstreamRequest{
		{Method: "GET", Target: plain.URL + "/page?q=1", Auth: upstreamAuth},
		{Method: "CONNECT", Target: secureHost, Auth: upstreamAuth},
	}
	if got := up.Seen(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the upstream proxy saw %+v, want %+v", got, want)
	}
	for _, s := range []*seenBy{&plainSeen, &tlsSeen} {
		for _, a := range s.auths {
			if a != "" {
				t.Fatalf("the site got Proxy-Authorization %q", a)
			}
		}
	}
}

// TestUpstreamNotReachedWhenRefused: a refused origin is answered 403 by the egress proxy
// and never reaches the upstream proxy, as a request or as a tunnel.
func TestUpstreamNotReachedWhenRefused(t *testing.T) {
	t.Parallel()
	up := runtimetest.NewUpstream()
	defer up.Close()
	site := httptest.NewServer(http.HandlerFunc(new(seenBy).handler))
	defer site.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(new(seenBy).handler))
	defer secure.Close()
	c := viaUpstream(t, upstreamURL(up), secure.Client().Transport.(*http.Transport).TLSClientConfig) // nothing allowed
	if code, _ := get(t, c, site.URL+"/"); code != http.StatusForbidden {
		t.Fatalf("refused plain origin: %d", code)
	}
	if _, err := c.Get(secure.URL + "/"); err == nil {
		t.Fatal("a refused CONNECT opened a tunnel")
	}
	if seen := up.Seen(); len(seen) != 0 {
		t.Fatalf("refused origins reached the upstream proxy: %+v", seen)
	}
}

// TestUpstreamFailureKeepsCredentials: an upstream that refuses (407) or hangs up gets the
// browser a 502 from the egress proxy, and so does a CONNECT to one that accepts and never
// answers, within the dial budget (a plain request to it waits for its response headers,
// budgets.ProxyResponseHeader, as one to a slow site does); no answer carries the upstream's
// password.
func TestUpstreamFailureKeepsCredentials(t *testing.T) {
	t.Parallel()
	refusing := runtimetest.NewUpstream()
	refusing.Refuse = true
	defer refusing.Close()
	hangup := silentUpstream(t, true)
	mute := silentUpstream(t, false)
	site := httptest.NewServer(http.HandlerFunc(new(seenBy).handler))
	defer site.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(new(seenBy).handler))
	defer secure.Close()
	tlsConf := secure.Client().Transport.(*http.Transport).TLSClientConfig
	for name, up := range map[string]string{
		"refusing": upstreamURL(refusing),
		"hangup":   "http://fb:" + upstreamPassword + "@" + hangup,
		"mute":     "http://fb:" + upstreamPassword + "@" + mute,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := viaUpstream(t, up, tlsConf, site.URL, secure.URL)
			if name != "mute" {
				code, body := get(t, c, site.URL+"/")
				if code != http.StatusBadGateway || strings.Contains(body, upstreamPassword) {
					t.Fatalf("plain through a failing upstream: %d %q", code, body)
				}
			}
			_, err := c.Get(secure.URL + "/")
			if err == nil || strings.Contains(err.Error(), upstreamPassword) || !strings.Contains(err.Error(), "Bad Gateway") {
				t.Fatalf("https through a failing upstream: %v", err)
			}
		})
	}
}

// silentUpstream is a proxy that takes each request and then hangs up at once (hangup) or
// never answers; it returns its host:port.
func silentUpstream(t *testing.T, hangup bool) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hangup {
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = c.Close()
			}
			return
		}
		<-done
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.Listener.Addr().String()
}
