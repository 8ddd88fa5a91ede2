package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// mcpHTTPServer is a `fastbrowser mcp --http` process: where it listens and the token it
// printed.
type mcpHTTPServer struct {
	url, token string
	stderr     *proctest.SyncBuffer
}

// startMCPHTTP runs `fastbrowser mcp --http 127.0.0.1:0 args…` (FASTBROWSER_DEBUG=1, so each
// session's end is logged on stderr) and reads its one listening line. The cleanup closes
// its stdin and waits for exit 0; a server that does not stop is killed and the test fails.
func startMCPHTTP(t *testing.T, args ...string) *mcpHTTPServer {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"mcp", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "FASTBROWSER_DEBUG=1")
	stderr := &proctest.SyncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		rest, _ := io.ReadAll(stdout)
		if len(rest) != 0 {
			t.Errorf("stdout after the listening line: %q", rest)
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("mcp --http exit: %v\n%s", err, stderr.String())
			}
		case <-time.After(30 * time.Second): // a guard against a hang, not a measurement
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("mcp --http did not stop after stdin ended\n%s", stderr.String())
		}
	})
	var line string
	select {
	case line = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatalf("no listening line\n%s", stderr.String())
	}
	var ready map[string]string
	if err := json.Unmarshal([]byte(line), &ready); err != nil || len(ready) != 2 {
		t.Fatalf("listening line %q: want {url, token}\n%s", line, stderr.String())
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/mcp$`).MatchString(ready["url"]) || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(ready["token"]) {
		t.Fatalf("listening line %q: want a loopback /mcp url and 32 random bytes in hex", line)
	}
	return &mcpHTTPServer{url: ready["url"], token: ready["token"], stderr: stderr}
}

// bearerTransport adds the server's token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect is the SDK's streamable HTTP client on the server, with the token.
func (s *mcpHTTPServer) connect(t *testing.T, opts *mcp.ClientOptions) *mcpClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "fastbrowser-test", Version: "1"}, opts)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: bearerTransport{s.token}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, s.stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return &mcpClient{t: t, cs: cs, stderr: s.stderr}
}

// waitStderr waits for the server's stderr to hold want (30 s: a guard against a hang, not
// a measurement).
func (s *mcpHTTPServer) waitStderr(t *testing.T, want string) {
	t.Helper()
	if err := s.stderr.WaitFor(want, 30*time.Second); err != nil {
		t.Fatalf("stderr: %v:\n%s", err, s.stderr.String())
	}
}

// TestMCPHTTP drives `fastbrowser mcp --http` with the SDK's streamable HTTP client against
// real Chromium and the fixture shop: a request without the token or with a wrong one is a
// bare 401; with it, the tools work; each connection is a task of its own, and a connection's
// end closes the sessions it opened. With --confirm-mutations the prompt reaches the client
// too: over HTTP the SDK negotiates a version before 2026-07-28, so the server asks it
// (elicitation/create) rather than the client asking itself as over stdio.
func TestMCPHTTP(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	srv := startMCPHTTP(t, "--binding-origin", shop, "--confirm-mutations")

	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for name, auth := range map[string]string{"no token": "", "a wrong token": "Bearer " + strings.Repeat("0", 64), "the token without Bearer": srv.token} {
		req, _ := http.NewRequest(http.MethodPost, srv.url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || len(body) != 0 || resp.Header.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s: %d %q (session %q); want a bare 401", name, resp.StatusCode, body, resp.Header.Get("Mcp-Session-Id"))
		}
	}

	el := &elicitor{answer: "accept"}
	a := srv.connect(t, &mcp.ClientOptions{ElicitationHandler: el.handle})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	listed, err := a.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Tools) != len(mcpTools) {
		t.Errorf("%d tools over HTTP, want %d", len(listed.Tools), len(mcpTools))
	}
	first := a.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	if nav := enveloped(t, a.ok("browser_navigate", map[string]any{"session": first, "url": shop + "/shop/login"})); !strings.HasSuffix(nav["url"].(string), "/shop/login") {
		t.Fatalf("navigate: %v", nav)
	}
	if p := el.last(); len(p) != 1 || !strings.Contains(p[0], "loading a page of "+shop) {
		t.Errorf("navigate's prompts over HTTP: %q", p)
	}
	if text := enveloped(t, a.ok("browser_read", map[string]any{"session": first}))["text"].(string); !strings.Contains(text, "Sign in to the shop") {
		t.Errorf("read: %q", text)
	}

	// Another connection is another task: the first's session is not its own.
	b := srv.connect(t, nil)
	if e := b.refused("browser_read", map[string]any{"session": first}); e["code"] != "session_not_owned" {
		t.Errorf("the second connection reading the first's session: %v; want session_not_owned", e)
	}
	if out := a.ok("browser_close", map[string]any{"session": first}); out["closed"] != true {
		t.Errorf("close: %v", out)
	}

	// The end of a connection (the client's DELETE) ends the sessions it left open.
	left := a.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	if err := a.cs.Close(); err != nil {
		t.Fatal(err)
	}
	srv.waitStderr(t, "fastbrowser mcp: session "+left+" ended: task ended")
	if e := b.refused("browser_read", map[string]any{"session": left}); e["code"] != "session_not_owned" {
		t.Errorf("the second connection reading the ended connection's session: %v; want session_not_owned", e)
	}
	if strings.Contains(srv.stderr.String(), srv.token) {
		t.Errorf("the token is in the server's log")
	}
}

// TestMCPHTTPFlags: --http listens on loopback only and --http-token-env's token is used,
// never printed; bad values are exit 2 naming the flag, before anything starts.
func TestMCPHTTPFlags(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "localhost:0", "192.0.2.1:8080", "[::]:0", "127.0.0.1", "127.0.0.1:99999"} {
		r := runCLI(t, nil, "mcp", "--binding-origin", "http://127.0.0.1:1", "--http", addr)
		if r.code != exitInvalid || !strings.Contains(r.stderr, "--http") || r.stdout != "" {
			t.Errorf("--http %s: exit %d\nstdout %q\nstderr %q", addr, r.code, r.stdout, r.stderr)
		}
	}
	env := map[string]string{"MCP_TOKEN": "short-token", "MCP_TOKEN_OK": "operator-token-0123456789"}
	for _, args := range [][]string{
		{"--http", "127.0.0.1:0", "--http-token-env", "MCP_TOKEN"},
		{"--http", "127.0.0.1:0", "--http-token-env", "MCP_TOKEN_UNSET_X"},
		{"--http-token-env", "MCP_TOKEN_OK"},
		{"--http-idle-timeout", "1m"},
		{"--http", "127.0.0.1:0", "--http-idle-timeout", "500ms"},
		{"--http", "127.0.0.1:0", "--http-idle-timeout", "25h"},
	} {
		r := runCLI(t, env, append([]string{"mcp", "--binding-origin", "http://127.0.0.1:1"}, args...)...)
		if r.code != exitInvalid || !strings.Contains(r.stderr, "--http") || r.stdout != "" || strings.Contains(r.stderr, "short-token") {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
	// stdin is empty here, so the server stops as soon as it has said where it listens.
	r := runCLI(t, env, "mcp", "--binding-origin", "http://127.0.0.1:1", "--http", "127.0.0.1:0", "--http-token-env", "MCP_TOKEN_OK")
	var ready map[string]string
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &ready) != nil || len(ready) != 1 || !regexp.MustCompile(`^http://127\.0\.0\.1:\d+/mcp$`).MatchString(ready["url"]) ||
		strings.Contains(r.stdout+r.stderr, "operator-token") {
		t.Errorf("--http-token-env: exit %d\nstdout %q\nstderr %q; want exit 0 and only {url}", r.code, r.stdout, r.stderr)
	}
}

// TestMCPHTTPIdleTimeout: an MCP session whose client sends nothing more (gone without its
// DELETE) is closed after --http-idle-timeout, and the browser session it opened ends with
// it, as at a DELETE; the client's next call is refused by the server, which no longer knows
// its MCP session.
func TestMCPHTTPIdleTimeout(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	srv := startMCPHTTP(t, "--binding-origin", shop, "--http-idle-timeout", "3s")
	a := srv.connect(t, nil)
	session := a.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	srv.waitStderr(t, "fastbrowser mcp: session "+session+" ended: task ended")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := a.cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_read", Arguments: map[string]any{"session": session}}); err == nil {
		t.Errorf("a call on the MCP session closed for idleness was answered")
	}
}
