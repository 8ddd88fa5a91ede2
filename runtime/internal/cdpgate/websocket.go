package cdpgate

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/gorilla/websocket"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// wsState is the token websocket: nothing listens until WebSocketURL is first called.
type wsState struct {
	once  sync.Once
	mu    sync.Mutex // url and err, for WebSocketURLIfStarted while once runs
	url   string
	err   error
	token string
	srv   *http.Server
	// attach is closed at the next attach through the websocket (NextAttach); under mu.
	attach chan struct{}
}

// WebSocketURL is where a person or another program attaches to the browser on purpose:
// ws://127.0.0.1:PORT/devtools/browser/TOKEN, TOKEN 32 random bytes in hex, fresh for each
// browser. Each connection there gets a browser session of its own, as a worker does.
// http://127.0.0.1:PORT/TOKEN is its DevTools HTTP endpoint for clients that start from one
// (it answers /json/version only). Any other path — /json/list, /json/new, /devtools/… with
// another token — is 404, and so is every request from a connection of another user of the
// machine (Linux: the peer socket's owner in /proc/net/tcp), token or not. The listener
// starts on the first call and ends with the gate.
func (g *Gate) WebSocketURL() (string, error) {
	g.ws.once.Do(func() {
		url, err := g.listen()
		g.ws.mu.Lock()
		g.ws.url, g.ws.err = url, err
		g.ws.mu.Unlock()
	})
	return g.WebSocketURLIfStarted()
}

// HTTPURL is WebSocketURL's DevTools HTTP endpoint, http://127.0.0.1:PORT/TOKEN.
func (g *Gate) HTTPURL() (string, error) {
	ws, err := g.WebSocketURL()
	if err != nil {
		return "", err
	}
	host := strings.TrimPrefix(ws, "ws://")
	host = host[:strings.IndexByte(host, '/')]
	return "http://" + host + "/" + g.ws.token, nil
}

func (g *Gate) listen() (string, error) {
	select {
	case <-g.done:
		return "", g.Err()
	default:
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("cdpgate: token: %w", err)
	}
	g.ws.token = hex.EncodeToString(b[:])
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("cdpgate: listen: %w", err)
	}
	g.ws.srv = &http.Server{
		Handler:           http.HandlerFunc(g.handle),
		ReadHeaderTimeout: budgets.GateAttach,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() { _ = g.ws.srv.Serve(ln) }()
	return "ws://" + ln.Addr().String() + "/devtools/browser/" + g.ws.token, nil
}

func (g *Gate) stopWebSocket() {
	g.ws.once.Do(func() { // never starts after this
		g.ws.mu.Lock()
		g.ws.err = ErrClosed
		g.ws.mu.Unlock()
	})
	if g.ws.srv != nil {
		_ = g.ws.srv.Close()
	}
}

var upgrader = websocket.Upgrader{
	// Chromium's own rule (--remote-allow-origins): a page must not drive the browser. A
	// program sends no Origin; the DevTools front end sends its own.
	CheckOrigin: func(r *http.Request) bool {
		o := r.Header.Get("Origin")
		return o == "" || o == "devtools://devtools"
	},
}

func (g *Gate) handle(w http.ResponseWriter, r *http.Request) {
	if !sameUser(r) {
		http.NotFound(w, r)
		return
	}
	if tok, ok := strings.CutPrefix(r.URL.Path, "/devtools/browser/"); ok && g.tokenIs(tok) {
		g.upgrade(w, r)
		return
	}
	tok, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if g.tokenIs(tok) && (rest == "json/version" || rest == "json/version/") && r.Method == http.MethodGet {
		g.version(w, r)
		return
	}
	http.NotFound(w, r)
}

func (g *Gate) tokenIs(s string) bool {
	return len(s) == len(g.ws.token) && subtle.ConstantTimeCompare([]byte(s), []byte(g.ws.token)) == 1
}

func (g *Gate) upgrade(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	conn.SetReadLimit(budgets.BrowserMessageBytes)
	if g.serve(context.Background(), &wsLink{conn: conn}) == nil {
		g.attached()
	}
}

// NextAttach is closed when the next client attaches through the token websocket (a person
// or a program on purpose; never the session's own worker, which has its socket): whoever
// owns work in the browser hears that someone else now can act in it.
func (g *Gate) NextAttach() <-chan struct{} {
	g.ws.mu.Lock()
	defer g.ws.mu.Unlock()
	if g.ws.attach == nil {
		g.ws.attach = make(chan struct{})
	}
	return g.ws.attach
}

// attached tells NextAttach's callers a client attached.
func (g *Gate) attached() {
	g.ws.mu.Lock()
	defer g.ws.mu.Unlock()
	if g.ws.attach != nil {
		close(g.ws.attach)
		g.ws.attach = nil
	}
}

// version answers /json/version as Chromium does, with this endpoint's websocket.
func (g *Gate) version(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), budgets.GateAttach)
	defer cancel()
	res, err := g.Call(ctx, "Browser.getVersion", nil)
	if err != nil {
		http.Error(w, "the browser did not answer", http.StatusServiceUnavailable)
		return
	}
	var v struct {
		ProtocolVersion string `json:"protocolVersion"`
		Product         string `json:"product"`
		UserAgent       string `json:"userAgent"`
		JSVersion       string `json:"jsVersion"`
	}
	_ = json.Unmarshal(res, &v)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = json.NewEncoder(w).Encode(map[string]string{
		"Browser": v.Product, "Protocol-Version": v.ProtocolVersion, "User-Agent": v.UserAgent,
		"V8-Version": v.JSVersion, "webSocketDebuggerUrl": g.ws.url,
	})
}

// wsLink is a client on the token websocket: one message a frame.
type wsLink struct{ conn *websocket.Conn }

func (l *wsLink) Next() ([]byte, error) {
	_, msg, err := l.conn.ReadMessage()
	return msg, err
}
func (l *wsLink) Send(msg []byte) error { return l.conn.WriteMessage(websocket.TextMessage, msg) }
func (l *wsLink) Close() error          { return l.conn.Close() }

// WebSocketURLIfStarted is WebSocketURL if something asked for it already, else "": it
// never starts the listener.
func (g *Gate) WebSocketURLIfStarted() (string, error) {
	g.ws.mu.Lock()
	defer g.ws.mu.Unlock()
	return g.ws.url, g.ws.err
}
