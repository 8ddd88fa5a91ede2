package runtime_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

const upstreamPassword = "s3cret-upstream-pw"

// noPassword fails the test when any text (errors, results as JSON, the log) carries the
// upstream proxy's password.
func noPassword(t *testing.T, what string, v any) {
	t.Helper()
	var text string
	switch x := v.(type) {
	case error:
		if x == nil {
			return
		}
		text = x.Error()
		if b, err := json.Marshal(transport.AsOperationError("", x)); err == nil {
			text += string(b)
		}
	case string:
		text = x
	default:
		b, _ := json.Marshal(x)
		text = string(b)
	}
	if strings.Contains(text, upstreamPassword) {
		t.Errorf("%s carries the upstream proxy's password: %s", what, text)
	}
}

// TestUpstreamProxySession: a session with an upstream proxy loads its pages through it,
// with the proxy's credentials; a destination the policy refuses (the WebSocket the page
// opens to the canary, which only the egress proxy holds) is refused before the upstream
// proxy hears of it; the password is in no error, result or log line.
func TestUpstreamProxySession(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	canary, srv := fixture.NewCanaryServer()
	defer srv.Close()
	up := runtimetest.NewUpstream()
	defer up.Close()
	var log proctest.SyncBuffer
	rt := runtimetest.OpenWith(t, runtime.Options{AllowedOrigins: []string{site.URL}, Log: &log,
		UpstreamProxy: "http://fb:" + upstreamPassword + "@" + up.Listener.Addr().String()})

	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	if err != nil || nav.Status != 200 {
		t.Fatalf("navigate through the upstream proxy: %+v %v", nav, err)
	}
	noPassword(t, "the navigation", nav)
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("fb:"+upstreamPassword))
	found := false
	for _, r := range up.Seen() {
		found = found || (r.Method == "GET" && r.Target == site.URL+"/about" && r.Auth == auth)
	}
	if !found {
		t.Fatalf("the upstream proxy did not carry the page with its credentials: %+v", up.Seen())
	}

	var r reported
	ws, err := transport.Dispatch(bg, rt, transport.Navigate{URL: fixture.EgressURL(site.URL, "websocket", srv.URL)})
	r.note(&ws, err)
	noPassword(t, "the websocket page", err)
	// The page's WebSocket tries after the navigation: wait for its refusal.
	r.readUntil(rt, func(b []transport.Blocked) bool { return blockedOrigin(srv.URL)(b) })
	for _, err := range r.errs {
		noPassword(t, "a read", err)
	}
	if canary.Connections() != 0 || !blockedOrigin(srv.URL)(r.blocked) {
		t.Fatalf("the canary saw %d connections; blocked %v", canary.Connections(), r.blocked)
	}
	canaryHost := strings.TrimPrefix(srv.URL, "http://")
	for _, req := range up.Seen() {
		if strings.Contains(req.Target, canaryHost) {
			t.Fatalf("a refused destination reached the upstream proxy: %+v", req)
		}
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	noPassword(t, "the session log", log.String())
}

// TestUpstreamProxyRefusing: an upstream proxy that refuses the session's credentials (407)
// fails the page with the egress proxy's own 502, and nothing the session says carries the
// password.
func TestUpstreamProxyRefusing(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	up := runtimetest.NewUpstream()
	up.Refuse = true
	defer up.Close()
	var log proctest.SyncBuffer
	rt := runtimetest.OpenWith(t, runtime.Options{AllowedOrigins: []string{site.URL}, Log: &log,
		UpstreamProxy: "http://fb:" + upstreamPassword + "@" + up.Listener.Addr().String()})
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	noPassword(t, "the navigation error", err)
	noPassword(t, "the navigation", nav)
	if err == nil && nav.Status != 502 {
		t.Fatalf("a page through a refusing upstream: %+v", nav)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	noPassword(t, "the read error", err)
	noPassword(t, "the read", rd)
	if len(up.Seen()) == 0 {
		t.Fatal("the upstream proxy was never asked")
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	noPassword(t, "the session log", log.String())
}

// TestUpstreamProxyInvalid: an upstream proxy that is not an http:// URL with a host and no
// path, or a session without the egress proxy to dial it, is invalid_request on
// upstreamProxy, before any browser starts, and the message never repeats the password.
func TestUpstreamProxyInvalid(t *testing.T) {
	t.Parallel()
	pw := upstreamPassword
	for _, tt := range []struct {
		name string
		opts runtime.Options
		want string
	}{
		{"https", runtime.Options{UpstreamProxy: "https://fb:" + pw + "@proxy.example:3128"}, "https proxies are not supported"},
		{"socks", runtime.Options{UpstreamProxy: "socks5://fb:" + pw + "@proxy.example:1080"}, "socks5 proxies are not supported"},
		{"ftp", runtime.Options{UpstreamProxy: "ftp://fb:" + pw + "@proxy.example"}, "expected http://"},
		{"no host", runtime.Options{UpstreamProxy: "http://fb:" + pw + "@"}, "a host is required"},
		{"path", runtime.Options{UpstreamProxy: "http://fb:" + pw + "@proxy.example:3128/x"}, "no path"},
		{"unparsable", runtime.Options{UpstreamProxy: "http://fb:" + pw + "@proxy.example:port"}, "not a URL"},
		{"edge proxy off", runtime.Options{UpstreamProxy: "http://fb:" + pw + "@proxy.example:3128", EdgeProxy: runtime.EdgeProxyOff}, "needs the egress proxy"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			noPassword(t, "the error", openInvalid(t, tt.opts, "upstreamProxy", tt.want))
		})
	}
}

// TestUpstreamProxyOverEnvironmentProxy: under "*" a session on a machine whose environment
// names a proxy has no egress proxy (it would dial directly), but given UpstreamProxy it does,
// and its pages go through that proxy, not the environment's. Not parallel: it sets the
// environment.
func TestUpstreamProxyOverEnvironmentProxy(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1") // nothing listens: a page sent there fails
	site := runtimetest.Fixture()
	defer site.Close()
	up := runtimetest.NewUpstream()
	defer up.Close()
	rt := runtimetest.OpenWith(t, runtime.Options{UpstreamProxy: "http://" + up.Listener.Addr().String()})
	if got := rt.Enforcement(); len(got) != 2 || got[1] != "proxy" {
		t.Fatalf("enforcement %v, want browser and proxy", got)
	}
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/about"})
	if err != nil || nav.Status != 200 {
		t.Fatalf("navigate: %+v %v", nav, err)
	}
	if len(up.Seen()) == 0 {
		t.Fatal("the page did not go through the upstream proxy")
	}
}
