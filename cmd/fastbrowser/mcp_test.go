package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastbrowser/fastbrowser/runtime/mcpserver"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// mcpPassword is the shop's password: FIXTURE_PW in the mcp server's environment (and
// SHOP_PASSWORD in the fixture server's), never in a tool's arguments.
const mcpPassword = "mcp-fixture-PW-4417"

// mcpClient is the official Go SDK's client on a `fastbrowser mcp` process, with every tool
// result's text kept for the secret sweep.
type mcpClient struct {
	t       *testing.T
	cs      *mcp.ClientSession
	stderr  *proctest.SyncBuffer
	results []string
}

// startMCP runs `fastbrowser mcp args…` with FIXTURE_PW set and FASTBROWSER_DEBUG=1 (so the
// browser's and worker's logs reach stderr and the sweep covers them), connected over a
// CommandTransport. The cleanup closes stdin and waits for the server to exit 0; the
// package's TestMain fails on any browser, worker or profile left behind.
func startMCP(t *testing.T, args ...string) *mcpClient {
	t.Helper()
	return startMCPWith(t, nil, args...)
}

// startMCPWith is startMCP with the client's options (an elicitation handler).
func startMCPWith(t *testing.T, opts *mcp.ClientOptions, args ...string) *mcpClient {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "FIXTURE_PW="+mcpPassword, "FASTBROWSER_DEBUG=1")
	stderr := &proctest.SyncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "fastbrowser-test", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A guard against a hang, not a measurement: the server exits once stdin ends and its
	// sessions are closed.
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 30 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	c := &mcpClient{t: t, cs: cs, stderr: stderr}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("mcp server exit: %v\n%s", err, stderr.String())
		}
	})
	return c
}

// call calls a tool and returns its structured content and whether it is an error.
func (c *mcpClient) call(name string, args map[string]any) (map[string]any, bool) {
	c.t.Helper()
	out, isErr, images := c.callWithImages(name, args)
	if len(images) != 0 {
		c.t.Fatalf("%s: %d images besides the JSON text, want none", name, len(images))
	}
	return out, isErr
}

// callWithImages is call for a tool that may add images after its one JSON text.
func (c *mcpClient) callWithImages(name string, args map[string]any) (map[string]any, bool, []*mcp.ImageContent) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) == 0 {
		c.t.Fatalf("%s: no content, want the one JSON text", name)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		c.t.Fatalf("%s: content item 0 is %T, want the JSON text", name, res.Content[0])
	}
	var images []*mcp.ImageContent
	for i, item := range res.Content[1:] {
		img, ok := item.(*mcp.ImageContent)
		if !ok {
			c.t.Fatalf("%s: content item %d is %T, want an image after the JSON text", name, i+1, item)
		}
		images = append(images, img)
	}
	c.results = append(c.results, text.Text)
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		c.t.Fatalf("%s: text content is not JSON: %v\n%s", name, err, text.Text)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	var structured map[string]any
	if json.Unmarshal(sc, &structured) != nil || !jsonEqual(structured, out) {
		c.t.Errorf("%s: structuredContent %s differs from the text %s", name, sc, text.Text)
	}
	return out, res.IsError, images
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// ok calls a tool that must succeed.
func (c *mcpClient) ok(name string, args map[string]any) map[string]any {
	c.t.Helper()
	out, isErr := c.call(name, args)
	if isErr {
		c.t.Fatalf("%s %v: %v", name, args, out)
	}
	return out
}

// refused calls a tool that must fail and returns its error object.
func (c *mcpClient) refused(name string, args map[string]any) map[string]any {
	c.t.Helper()
	out, isErr := c.call(name, args)
	e, _ := out["error"].(map[string]any)
	if !isErr || e == nil {
		c.t.Fatalf("%s %v: %v; want isError with an error", name, args, out)
	}
	for _, k := range []string{"code", "retry", "mutationState"} {
		if s, _ := e[k].(string); s == "" {
			c.t.Errorf("%s: error without %s: %v", name, k, e)
		}
	}
	// Only what the server decided is outside the envelope: the words, and what the page
	// did, are in detail. They are lifted out here for the callers' assertions.
	for _, k := range []string{"message", "blocked", "received"} {
		if _, ok := e[k]; ok {
			c.t.Errorf("%s: %s outside the detail envelope: %v", name, k, e)
		}
	}
	d, _ := e["detail"].(map[string]any)
	if d == nil {
		c.t.Fatalf("%s: error without detail: %v", name, e)
	}
	detail := enveloped(c.t, d)
	if s, _ := detail["message"].(string); s == "" {
		c.t.Errorf("%s: error without a message in its detail: %v", name, e)
	}
	for k, v := range detail {
		e[k] = v
	}
	return e
}

// enveloped is the page content of a result: inside the one envelope, with its note.
func enveloped(t *testing.T, out map[string]any) map[string]any {
	t.Helper()
	u, _ := out["untrusted"].(map[string]any)
	if u == nil || out["note"] != mcpserver.UntrustedNote || len(out) != 2 {
		t.Fatalf("result not in the envelope {untrusted, note}: %v", out)
	}
	return u
}

var mcpTools = []string{"browser_open", "browser_navigate", "browser_observe", "browser_act", "browser_type_secret", "browser_read",
	"browser_back", "browser_forward", "browser_reload", "browser_tabs", "browser_select_tab", "browser_wait_popup", "browser_close_tab",
	"browser_assert", "browser_screenshot", "browser_download", "browser_export", "browser_close"}

// TestMCPSession drives `fastbrowser mcp` with the SDK's client against real Chromium and
// the fixture shop (which checks the password): the tool list and schemas, a sign-in with
// the password typed by name, an off-policy navigate, a stale ref, a closed session; and
// the password in no tool result, artifact or log line, in any encoding.
func TestMCPSession(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	canary := runtimetest.NewCanary()
	defer canary.Close()
	artifacts := t.TempDir()
	c := startMCP(t, "--binding-origin", shop, "--binding-origin", canary.URL, "--secret-env", "FIXTURE_PW", "--artifacts", artifacts)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	listed, err := c.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		b, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: input schema %s: %v", tool.Name, b, err)
		}
		hasSession := s.Properties["session"] != nil && slices.Contains(s.Required, "session")
		if hasSession == (tool.Name == "browser_open") {
			t.Errorf("%s: session in the input schema %v (required %v); want it in every tool but browser_open", tool.Name, hasSession, s.Required)
		}
		switch tool.Name {
		case "browser_open":
			if s.Properties["task"] != nil || !slices.Contains(s.Required, "allowedOrigins") {
				t.Errorf("browser_open's schema %s: want allowedOrigins required and no task (the connection's)", b)
			}
		case "browser_type_secret":
			if !strings.Contains(string(s.Properties["name"]), `"FIXTURE_PW"`) || s.Properties["text"] != nil {
				t.Errorf("browser_type_secret's schema %s: want name among the --secret-env names and no text", b)
			}
		case "browser_act":
			if s.Properties["target"] == nil || !strings.Contains(string(b), `"$defs"`) {
				t.Errorf("browser_act's schema %s: want act's target, its types in $defs", b)
			}
		}
	}
	if !slices.Equal(sortedCopy(names), sortedCopy(mcpTools)) {
		t.Fatalf("tools %v, want %v", names, mcpTools)
	}

	// Deny by default: an origin outside the binding is refused, naming the entry.
	if e := c.refused("browser_open", map[string]any{"allowedOrigins": []string{"http://elsewhere.test"}}); e["code"] != "invalid_request" || e["path"] != "request.allowedOrigins[0]" {
		t.Errorf("open outside the binding: %v", e)
	}
	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)

	// Sign in: the username by ref, the password by name, the button by locator.
	nav := enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/login"}))
	if !strings.HasSuffix(nav["url"].(string), "/shop/login") {
		t.Fatalf("navigate: %v", nav)
	}
	ob := enveloped(t, c.ok("browser_observe", map[string]any{"session": session}))
	outline, _ := ob["text"].(string)
	if _, ok := ob["nodes"]; ok {
		t.Errorf("observe returned the node tree besides the outline text: %v", ob)
	}
	user, pw := outlineRef(t, outline, "textbox", "Username"), outlineRef(t, outline, "password", "Password")
	c.ok("browser_act", map[string]any{"session": session, "action": "type", "target": map[string]any{"ref": user}, "text": "alice"})
	// The schema says act's text is a literal: an {"env"} text would read any variable.
	if e := c.refused("browser_act", map[string]any{"session": session, "action": "type", "target": map[string]any{"ref": pw}, "text": map[string]any{"env": "FIXTURE_PW"}}); e["code"] != "invalid_request" || e["mutationState"] != "not_attempted" {
		t.Errorf("act with {env} text: %v", e)
	}
	if e := c.refused("browser_type_secret", map[string]any{"session": session, "target": map[string]any{"ref": pw}, "name": "HOME"}); e["code"] != "invalid_request" {
		t.Errorf("type_secret of a name not in --secret-env: %v", e)
	}
	typed := enveloped(t, c.ok("browser_type_secret", map[string]any{"session": session, "target": map[string]any{"ref": pw}, "name": "FIXTURE_PW"}))
	if r := typed["receipt"].(map[string]any); r["typedLength"] != float64(len(mcpPassword)) {
		t.Errorf("type_secret receipt %v: want typedLength %d", r, len(mcpPassword))
	}
	c.ok("browser_act", map[string]any{"session": session, "action": "click", "target": map[string]any{"role": "button", "name": "Log in"}})
	read := enveloped(t, c.ok("browser_read", map[string]any{"session": session}))
	if text, _ := read["text"].(string); !strings.Contains(text, "Signed in as alice") {
		t.Fatalf("after sign-in the page reads %q", text)
	}

	// Off policy, named outright: origin_denied before anything is sent. Reached by a
	// redirect from an allowed page: egress_denied inside the browser. The canary (inside
	// the binding, outside the session's origins) sees nothing either way.
	if e := c.refused("browser_navigate", map[string]any{"session": session, "url": canary.URL + "/secret-path"}); e["code"] != "origin_denied" || e["mutationState"] != "not_attempted" {
		t.Errorf("navigate off policy: %v; want origin_denied, not_attempted", e)
	}
	e := c.refused("browser_navigate", map[string]any{"session": session, "url": fixture.EgressURL(shop, "redirect", canary.URL)})
	if e["code"] != "egress_denied" {
		t.Errorf("navigate redirected off policy: %v; want egress_denied", e)
	}
	if canary.Hits() != 0 || canary.Connections() != 0 {
		t.Errorf("the canary saw %d requests, %d connections: %v", canary.Hits(), canary.Connections(), canary.Paths())
	}

	// A ref from before a navigation is refused after it, never acted on.
	enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/orders"}))
	before := enveloped(t, c.ok("browser_observe", map[string]any{"session": session}))
	logout := outlineRef(t, before["text"].(string), "button", "Log out")
	enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/orders"}))
	if e := c.refused("browser_act", map[string]any{"session": session, "action": "click", "target": map[string]any{"ref": logout}}); e["code"] != "stale_document" || e["mutationState"] != "not_attempted" {
		t.Errorf("a stale ref: %v; want stale_document, not_attempted", e)
	}
	if text := enveloped(t, c.ok("browser_read", map[string]any{"session": session}))["text"].(string); !strings.Contains(text, "Signed in as alice") {
		t.Errorf("the stale click signed out: %q", text)
	}

	// Closed: a later call on the session is refused.
	if out := c.ok("browser_close", map[string]any{"session": session}); out["closed"] != true {
		t.Errorf("close: %v", out)
	}
	if e := c.refused("browser_read", map[string]any{"session": session}); e["code"] != "session_ended" {
		t.Errorf("read after close: %v; want session_ended", e)
	}
	if e := c.refused("browser_read", map[string]any{"session": "s99"}); e["code"] != "session_not_found" {
		t.Errorf("an unknown session: %v; want session_not_found", e)
	}

	texts := map[string][]byte{"mcp stderr": []byte(c.stderr.String())}
	for i, r := range c.results {
		texts["tool result "+strconv.Itoa(i)] = []byte(r)
	}
	sweepForSecret(t, mcpPassword, artifacts, texts)
	if !strings.Contains(c.stderr.String(), "fastbrowser mcp: session "+session+" ended: closed") {
		t.Errorf("the debug log on stderr lacks the session's end:\n%s", c.stderr.String())
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// TestMCPNeedsBindingOrigin: without a binding there is no default: exit 2, the flag named
// on stderr, nothing on stdout (the MCP channel).
func TestMCPNeedsBindingOrigin(t *testing.T) {
	r := runCLI(t, nil, "mcp")
	if r.code != exitInvalid || !strings.Contains(r.stderr, "--binding-origin") || r.stdout != "" {
		t.Fatalf("mcp without --binding-origin: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "mcp", "--no-such-flag")
	if r.code != exitInvalid || r.stdout != "" {
		t.Fatalf("mcp with an unknown flag: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
}
