package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// hostSite serves a small page on loopback and records the Host of every request, so a test
// can tell which names reached it. Names under localhost resolve to loopback in Chromium
// (and in the egress proxy, as in Chromium), so one server stands for many hosts.
type hostSite struct {
	*httptest.Server
	port  string
	mu    sync.Mutex
	hosts []string
}

func newHostSite(t *testing.T) *hostSite {
	t.Helper()
	s := &hostSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hosts = append(s.hosts, r.Host)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<!doctype html><title>on %s</title><p>host %s</p>", r.Host, r.Host)
	}))
	t.Cleanup(s.Close)
	_, s.port, _ = net.SplitHostPort(s.Listener.Addr().String())
	return s
}

func (s *hostSite) url(host string) string { return "http://" + host + ":" + s.port + "/page" }

// reached reports whether a request for host came in.
func (s *hostSite) reached(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.hosts, host+":"+s.port)
}

// TestSessionAllowedDomain is the seed's --allowed-domain: the host and its subdomains load
// (through the browser's interception and the egress proxy alike, on any port), another
// host is refused before it is requested, the export carries the allowance as the domain
// entry "*.app.localhost", and that file validates.
func TestSessionAllowedDomain(t *testing.T) {
	site := newHostSite(t)
	s := newSessionCLI(t)
	id, opened := s.open(site.url("sub.app.localhost"), "--allowed-domain", "app.localhost")
	if got := opened.str("title"); got != "on sub.app.localhost:"+site.port {
		t.Fatalf("open on a subdomain: title %q\n%s", got, opened.stdout)
	}
	enf, _ := opened.obj["enforcement"].(map[string]any)
	if got := fmt.Sprint(enf["allowedOrigins"]); got != "[*.app.localhost]" {
		t.Errorf("enforcement.allowedOrigins = %s, want [*.app.localhost]", got)
	}

	apex := s.do(id, fmt.Sprintf(`{"op":"navigate","request":{"url":%q}}`, site.url("app.localhost")))
	if apex.code != 0 || apex.str("status") != sessions.StatusDone || !site.reached("app.localhost") {
		t.Errorf("navigate to the domain itself: exit %d\n%s", apex.code, apex.stdout)
	}
	for _, other := range []string{"other.localhost", "app.localhost.other.localhost", "xapp.localhost", "127.0.0.1"} {
		r := s.do(id, fmt.Sprintf(`{"op":"navigate","request":{"url":%q}}`, site.url(other)))
		r.want(t, "navigate to "+other, 1, sessions.CodeOperationFailed)
		if r.str("error", "cause") != "origin_denied" {
			t.Errorf("navigate to %s: cause %q, want origin_denied\n%s", other, r.str("error", "cause"), r.stdout)
		}
		if site.reached(other) {
			t.Errorf("%s was requested though the session allows only app.localhost", other)
		}
	}

	file := filepath.Join(t.TempDir(), "exported.json")
	exported, _ := s.exportTo(id, file)
	var f struct {
		AllowedOrigins []string `json:"allowedOrigins"`
	}
	if err := json.Unmarshal(exported, &f); err != nil || !slices.Equal(f.AllowedOrigins, []string{"*.app.localhost"}) {
		t.Errorf("the export's allowedOrigins = %v (%v), want [*.app.localhost]", f.AllowedOrigins, err)
	}
	if res := runCLI(t, nil, "validate", file); res.code != 0 {
		t.Errorf("validate the export: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestSessionAllowedDomainRefused: a bad --allowed-domain is a usage error naming the flag
// and what was expected, before anything starts.
func TestSessionAllowedDomainRefused(t *testing.T) {
	s := newSessionCLI(t)
	for value, why := range map[string]string{
		"https://example.com": "is a URL",
		"example.com:8080":    "has a port",
		"127.0.0.1":           "is an IP address",
		"com":                 "is a public suffix",
	} {
		r := s.run(sessionCmdOpts{}, "session", "open", "--allowed-domain", value, "http://www.example.com/")
		r.want(t, "--allowed-domain "+value, 2, sessions.CodeInvalidInput)
		if msg := r.str("error", "message"); !strings.Contains(msg, "--allowed-domain") || !strings.Contains(msg, why) {
			t.Errorf("--allowed-domain %s: message %q, want it to name the flag and say %q", value, msg, why)
		}
	}
}
