package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitor is a client's elicitation handler that answers with the action it is set to and
// keeps every prompt it was shown.
type elicitor struct {
	mu      sync.Mutex
	answer  string
	prompts []string
}

func (e *elicitor) set(answer string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answer = answer
}

// last is the prompts shown since the previous call of last.
func (e *elicitor) last() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.prompts
	e.prompts = nil
	return p
}

func (e *elicitor) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.prompts = append(e.prompts, req.Params.Message)
	return &mcp.ElicitResult{Action: e.answer}, nil
}

// TestMCPConfirmMutations: with --confirm-mutations every call that may change the page asks
// the user first, naming the action and the element (never the typed text or the secret);
// accepted it runs, declined or cancelled it is refused cancelled and the page is unchanged;
// a read asks nothing; an answer the server did not ask for is refused; a call on a session
// that is not the connection's (ended, unknown) is refused without asking.
func TestMCPConfirmMutations(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	el := &elicitor{answer: "accept"}
	c := startMCPWith(t, &mcp.ClientOptions{ElicitationHandler: el.handle},
		"--binding-origin", shop, "--secret-env", "FIXTURE_PW", "--confirm-mutations")

	// prompted checks that the last call asked exactly once, naming each of want and none
	// of never.
	prompted := func(what string, want []string, never ...string) {
		t.Helper()
		p := el.last()
		if len(p) != 1 {
			t.Fatalf("%s: %d prompts %q, want one", what, len(p), p)
		}
		for _, w := range want {
			if !strings.Contains(p[0], w) {
				t.Errorf("%s: prompt %q does not name %q", what, p[0], w)
			}
		}
		for _, n := range never {
			if strings.Contains(p[0], n) {
				t.Errorf("%s: prompt %q shows %q", what, p[0], n)
			}
		}
	}

	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	if p := el.last(); len(p) != 0 {
		t.Errorf("browser_open asked %q: it changes no page", p)
	}
	enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/login?next=%2Fshop%2Forders"}))
	prompted("navigate", []string{"loading a page of " + shop, session}, "/shop/login", "next=")

	outline := enveloped(t, c.ok("browser_observe", map[string]any{"session": session}))["text"].(string)
	if p := el.last(); len(p) != 0 {
		t.Errorf("browser_observe asked %q: it changes nothing", p)
	}
	user, pw := outlineRef(t, outline, "textbox", "Username"), outlineRef(t, outline, "password", "Password")
	c.ok("browser_act", map[string]any{"session": session, "action": "type", "target": map[string]any{"ref": user}, "text": "alice"})
	prompted("type", []string{"type into", `textbox "Username" (ref ` + user + `)`}, "alice")
	c.ok("browser_type_secret", map[string]any{"session": session, "target": map[string]any{"ref": pw}, "name": "FIXTURE_PW"})
	prompted("type_secret", []string{"the secret FIXTURE_PW", `password "Password" (ref ` + pw + `)`}, mcpPassword)

	// Declined, then dismissed: refused cancelled, nothing attempted, still signed out.
	for _, answer := range []string{"decline", "cancel"} {
		el.set(answer)
		e := c.refused("browser_act", map[string]any{"session": session, "action": "click", "target": map[string]any{"role": "button", "name": "Log in"}})
		if e["code"] != "cancelled" || e["mutationState"] != "not_attempted" || e["retry"] != "never" {
			t.Errorf("%s: %v; want cancelled, not_attempted, retry never", answer, e)
		}
		prompted(answer, []string{`click on button "Log in"`})
		el.set("accept")
		read := enveloped(t, c.ok("browser_read", map[string]any{"session": session}))
		if text := read["text"].(string); strings.Contains(text, "Signed in") || !strings.HasSuffix(read["url"].(string), "/shop/login?next=%2Fshop%2Forders") {
			t.Fatalf("after a %sd click the page is %v: %q", answer, read["url"], text)
		}
		if p := el.last(); len(p) != 0 {
			t.Errorf("browser_read asked %q", p)
		}
	}

	// An accept the server did not ask for runs nothing.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "browser_act",
		Arguments:      map[string]any{"session": session, "action": "click", "target": map[string]any{"role": "button", "name": "Log in"}},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}, RequestState: "made-up"})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(text, `"invalid_request"`) || !strings.Contains(text, `"requestState"`) {
		t.Errorf("a made-up answer: isError %v %s; want invalid_request at requestState", res.IsError, text)
	}
	if p := el.last(); len(p) != 0 {
		t.Errorf("a made-up answer asked %q", p)
	}

	// Accepted: the click runs.
	c.ok("browser_act", map[string]any{"session": session, "action": "click", "target": map[string]any{"ref": outlineRef(t, outline, "button", "Log in")}})
	prompted("click", []string{`click on button "Log in" (ref `})
	if text := enveloped(t, c.ok("browser_read", map[string]any{"session": session}))["text"].(string); !strings.Contains(text, "Signed in as alice") {
		t.Fatalf("after the accepted click the page reads %q", text)
	}
	el.last()
	c.ok("browser_close", map[string]any{"session": session})
	prompted("close", []string{"closing the session"})

	// A call that could not run is refused with the host's error before anyone is asked:
	// on the closed session, and on a session this connection never had.
	for id, code := range map[string]string{session: "session_ended", "s99": "session_not_found"} {
		e := c.refused("browser_act", map[string]any{"session": id, "action": "click", "target": map[string]any{"role": "button", "name": "Log in"}})
		if e["code"] != code || e["operation"] != "act" || e["mutationState"] != "not_attempted" {
			t.Errorf("act on session %s: %v; want %s for act, not attempted", id, e, code)
		}
		if p := el.last(); len(p) != 0 {
			t.Errorf("act on session %s asked %q before it was refused", id, p)
		}
	}
}

// TestMCPConfirmNeedsElicitation: a client that cannot be asked is refused before anything
// runs, naming the flag; a call that changes nothing still runs.
func TestMCPConfirmNeedsElicitation(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	c := startMCP(t, "--binding-origin", shop, "--confirm-mutations")
	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	e := c.refused("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/login"})
	if e["code"] != "invalid_request" || e["mutationState"] != "not_attempted" || !strings.Contains(e["message"].(string), "--confirm-mutations") || !strings.Contains(e["message"].(string), "elicitation") {
		t.Errorf("navigate from a client without elicitation: %v", e)
	}
	if url := enveloped(t, c.ok("browser_read", map[string]any{"session": session}))["url"].(string); strings.Contains(url, "/shop/login") {
		t.Errorf("the refused navigate loaded %s", url)
	}
}
