package cdpgate_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

func browser(t *testing.T) *chromium.Browser {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// dial is a client in this process through the gate.
func dial(t *testing.T, ctx context.Context, b *chromium.Browser) (*rpcc.Conn, *cdp.Client) {
	t.Helper()
	stream, err := b.Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := rpcc.DialContext(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) { return stream, nil }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn, cdp.NewClient(conn)
}

// raw is a websocket client that sends and reads raw CDP messages.
type raw struct{ c *websocket.Conn }

func (r raw) call(t *testing.T, msg string) map[string]any {
	t.Helper()
	if err := r.c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	for {
		_ = r.c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, b, err := r.c.ReadMessage()
		if err != nil {
			t.Fatalf("reading the answer to %s: %v", msg, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if _, ok := m["method"]; !ok { // an answer, not an event
			return m
		}
	}
}

func wsDial(t *testing.T, url string) raw {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return raw{c}
}

// Each client has a browser session of its own: its contexts go when it goes, another's
// stay, and a client cannot drive a session another client attached.
func TestClientsAreApart(t *testing.T) {
	t.Parallel()
	b := browser(t)
	a, other := wsDial(t, b.WebSocketURL()), wsDial(t, b.WebSocketURL())
	ctxA, sessA := rawPage(t, a)
	ctxB, _ := rawPage(t, other)

	got := other.call(t, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"document.title='owned'"},"sessionId":"`+sessA+`"}`)
	if e, _ := got["error"].(map[string]any); e == nil || e["code"] != float64(-32001) {
		t.Fatalf("a call on another client's session was answered %v, want error -32001", got)
	}
	got = a.call(t, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"document.title","returnByValue":true},"sessionId":"`+sessA+`"}`)
	if v := dig(got, "result", "result", "value"); v != "" {
		t.Fatalf("A's page title is %v (answer %v): the refused call reached it", v, got)
	}
	if got["sessionId"] != sessA {
		t.Errorf("an answer on A's page session came back as %v, want its sessionId %s", got, sessA)
	}

	// A leaves: its context is disposed, B's stays.
	_ = a.c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for id := 10; ; id++ {
		got := other.call(t, `{"id":`+strconv.Itoa(id)+`,"method":"Target.getBrowserContexts"}`)
		ids, _ := dig(got, "result", "browserContextIds").([]any)
		if !slices.Contains(ids, any(ctxB)) {
			t.Fatalf("B's context went when A left: %v", got)
		}
		if !slices.Contains(ids, any(ctxA)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("A's context %s still there after A left", ctxA)
		}
		time.Sleep(20 * time.Millisecond) // polls for the detach the gate sent
	}
}

// rawPage makes a browser context with a page and attaches to it (flat), as a worker does
// (the context disposed when its client detaches).
func rawPage(t *testing.T, r raw) (ctxID, sessionID string) {
	t.Helper()
	ctxID, _ = dig(r.call(t, `{"id":100,"method":"Target.createBrowserContext","params":{"disposeOnDetach":true}}`), "result", "browserContextId").(string)
	tid, _ := dig(r.call(t, `{"id":101,"method":"Target.createTarget","params":{"url":"about:blank","browserContextId":"`+ctxID+`"}}`), "result", "targetId").(string)
	sessionID, _ = dig(r.call(t, `{"id":102,"method":"Target.attachToTarget","params":{"targetId":"`+tid+`","flatten":true}}`), "result", "sessionId").(string)
	if ctxID == "" || tid == "" || sessionID == "" {
		t.Fatalf("could not make a page: context %q target %q session %q", ctxID, tid, sessionID)
	}
	return ctxID, sessionID
}

func dig(m map[string]any, path ...string) any {
	var v any = m
	for _, k := range path {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	return v
}

// A client in this process (Dial) is served like any other.
func TestDialInProcess(t *testing.T) {
	t.Parallel()
	b := browser(t)
	ctx := bounded(t)
	_, c := dial(t, ctx, b)
	v, err := c.Browser.GetVersion(ctx)
	if err != nil || !strings.Contains(v.Product, "Chrome") {
		t.Fatalf("Browser.getVersion = %+v, %v", v, err)
	}
}

// The token websocket answers only at its token; every listing Chromium's port serves is 404.
func TestWebSocketNeedsItsToken(t *testing.T) {
	t.Parallel()
	b := browser(t)
	url := b.WebSocketURL()
	host := strings.TrimPrefix(url, "ws://")
	host, token, _ := strings.Cut(host, "/devtools/browser/")
	if len(token) != 64 {
		t.Fatalf("token %q is not 32 bytes of hex", token)
	}
	for _, path := range []string{"/json/version", "/json/list", "/json", "/json/new?http://127.0.0.1:1/", "/devtools/browser/", "/devtools/browser/" + strings.Repeat("0", 64), "/" + strings.Repeat("0", 64) + "/json/version"} {
		for _, method := range []string{http.MethodGet, http.MethodPut} {
			req, _ := http.NewRequest(method, "http://"+host+path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound || strings.Contains(string(body), "devtools") {
				t.Errorf("%s %s: %d %q, want a bare 404", method, path, resp.StatusCode, body)
			}
		}
	}
	if _, _, err := websocket.DefaultDialer.Dial("ws://"+host+"/devtools/browser/"+strings.Repeat("f", 64), nil); err == nil {
		t.Error("a websocket with a wrong token was accepted")
	}
	// A page's script would send its Origin: refused even with the token.
	if _, _, err := websocket.DefaultDialer.Dial(url, http.Header{"Origin": {"http://127.0.0.1:4310"}}); err == nil {
		t.Error("a websocket from a page's origin was accepted")
	}
	// With the token: /json/version names the same websocket, which works.
	resp, err := http.Get("http://" + host + "/" + token + "/json/version")
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]string
	_ = json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if v["webSocketDebuggerUrl"] != url || !strings.Contains(v["Browser"], "Chrome") {
		t.Fatalf("/TOKEN/json/version = %v", v)
	}
	got := wsDial(t, url).call(t, `{"id":5,"method":"Browser.getVersion"}`)
	if got["id"] != float64(5) || got["result"] == nil || got["sessionId"] != nil {
		t.Fatalf("Browser.getVersion through the websocket = %v (want its own id back, no sessionId)", got)
	}
}

// The browser's root session and other clients' sessions are out of reach, however the
// message names them.
func TestMessagesThatTryToEscape(t *testing.T) {
	t.Parallel()
	b := browser(t)
	_, sess := rawPage(t, wsDial(t, b.WebSocketURL()))
	ws := wsDial(t, b.WebSocketURL())
	_, mine := rawPage(t, ws)
	for _, msg := range []string{
		`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"` + mine + `","sessionId":"` + sess + `"}`,
		`{"id":2,"method":"Runtime.evaluate","params":{"expression":"1"},"sessionId":"` + mine + `","session\u0049d":"` + sess + `"}`,
		`{"id":3,"method":"Browser.getVersion","sessionId":null}`,
		`{"id":"4","method":"Browser.getVersion"}`,
		`{"method":"Browser.getVersion"}`,
		`not json`,
	} {
		got := ws.call(t, msg)
		if got["error"] == nil || got["result"] != nil {
			t.Errorf("%s was answered %v, want an error", msg, got)
		}
	}
}

// When the browser goes, every client's connection ends.
func TestBrowserExitEndsClients(t *testing.T) {
	t.Parallel()
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := bounded(t)
	conn, _ := dial(t, ctx, b)
	ws := wsDial(t, b.WebSocketURL())
	_ = b.Close()
	select {
	case <-conn.Context().Done():
	case <-ctx.Done():
		t.Fatal("the in-process client's connection did not end with the browser")
	}
	_ = ws.c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, _, err := ws.c.ReadMessage(); err == nil || strings.Contains(err.Error(), "timeout") {
		t.Fatalf("the websocket did not end with the browser: %v", err)
	}
}
