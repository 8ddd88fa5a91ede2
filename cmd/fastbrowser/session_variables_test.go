package main

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

const varsPassword = "Tr0ub4dor-and-3"

// varsSite is a sign-in form that welcomes the user by name when the password is
// varsPassword (it never shows the password).
func varsSite(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Sign in</title><main><h1>Sign in</h1><form method="post" action="/login">
<label>Username <input name="user"></label> <label>Password <input type="password" name="pw"></label> <button>Log in</button></form></main>`)
	})
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		msg := "Wrong password"
		if r.FormValue("pw") == varsPassword {
			msg = "Welcome, " + html.EscapeString(r.FormValue("user"))
		}
		fmt.Fprintf(w, `<!doctype html><title>Portal</title><main><h1>%s</h1></main>`, msg)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// outlineRef is the ref of the element with role and name in an outline.
func outlineRef(t *testing.T, outline, role, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(role) + ` \[?(e\d+)\]? "` + regexp.QuoteMeta(name) + `"`).FindStringSubmatch(outline)
	if m == nil {
		t.Fatalf("no %s %q in the outline:\n%s", role, name, outline)
	}
	return m[1]
}

// Variables (seed 004): a literal %user% and a %password% read from the environment of the do
// that gives it, and of every later do, which then requires it. The password reaches the page
// (the site welcomes alice) but never the state directory, any command's output, the export
// or the model; the export keeps it as {"env"}, the literal as a file variable, and replays
// with `run` and no model.
func TestSessionVariablesNeverLeakAndReplay(t *testing.T) {
	base := varsSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config("openai", modelKeyEnv)
	s := newSessionCLI(t)
	id, open := s.open(base+"/", "--model", "openai:"+cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", modelKeyEnv)
	outline := open.str("outline")
	withKey := []string{modelKeyEnv + "=" + modelKey}
	withPassword := append(withKey, "PORTAL_PASSWORD="+varsPassword)

	srv.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "type", "ref": outlineRef(t, outline, "textbox", "Username"), "text": "alice"}})
	user := s.run(sessionCmdOpts{stdin: `{"act":"Type %user% into the Username field","variables":{"user":"alice"}}`, env: withKey}, "session", "do", id)
	if user.code != 0 || user.str("status") != sessions.StatusDone || user.obj["replays"] != true {
		t.Fatalf("type %%user%%: exit %d\n%s", user.code, user.stdout)
	}
	if req := srv.Requests(); len(req) != 1 || !strings.Contains(string(req[0].Body), "Type alice into the Username field") {
		t.Errorf("the model was not shown the literal in its placeholder's place")
	}

	// The model types the secret by its placeholder: it is never shown the value.
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]any{"action": "type", "ref": outlineRef(t, outline, "password", "Password"), "text": "%password%"}})
	pw := s.run(sessionCmdOpts{stdin: `{"act":"Type %password% into the Password field","variables":{"password":{"env":"PORTAL_PASSWORD"}}}`, env: withPassword}, "session", "do", id)
	if pw.code != 0 || pw.str("status") != sessions.StatusDone {
		t.Fatalf("type %%password%%: exit %d\n%s", pw.code, pw.stdout)
	}

	// Every later do reads the variable, and requires it.
	login := fmt.Sprintf(`{"click":%q}`, outlineRef(t, outline, "button", "Log in"))
	missing := s.run(sessionCmdOpts{stdin: login, env: withKey}, "session", "do", id)
	if missing.errorCode() != sessions.CodeInvalidInput || !strings.Contains(missing.str("error", "message"), "PORTAL_PASSWORD") {
		t.Fatalf("a later do without PORTAL_PASSWORD: exit %d\n%s", missing.code, missing.stdout)
	}
	click := s.run(sessionCmdOpts{stdin: login, env: withPassword}, "session", "do", id)
	if click.code != 0 || click.str("act") != `Click the "Log in" button` {
		t.Fatalf("the click by ref: exit %d\n%s", click.code, click.stdout)
	}
	welcome := s.run(sessionCmdOpts{stdin: `{"op":"assert","request":{"kind":"textContains","value":"Welcome, alice"}}`, env: withPassword}, "session", "do", id)
	if welcome.code != 0 {
		t.Fatalf("the site did not take the password:\n%s", welcome.stdout)
	}
	// An instruction holding the secret's value is refused.
	if r := s.run(sessionCmdOpts{stdin: `{"act":"Type ` + varsPassword + ` somewhere"}`, env: withPassword}, "session", "do", id); r.errorCode() != sessions.CodeInvalidInput {
		t.Errorf("words holding the secret: exit %d\n%s", r.code, r.stdout)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "signin.json")
	exported, ops := s.exportTo(id, file)
	var f struct {
		Variables map[string]string `json:"variables"`
	}
	_ = json.Unmarshal(exported, &f)
	if f.Variables["user"] != "alice" || len(ops) != 5 ||
		!strings.Contains(string(ops[1]), `"text": {`+"\n"+`          "var": "user"`) && !strings.Contains(compactJSON(ops[1]), `"text":{"var":"user"}`) ||
		!strings.Contains(compactJSON(ops[2]), `"text":{"env":"PORTAL_PASSWORD"}`) || !strings.Contains(compactJSON(ops[2]), `"words":"Type %password% into the Password field"`) ||
		!strings.Contains(compactJSON(ops[3]), `"words":"Click the \"Log in\" button"`) {
		t.Errorf("the export does not keep the variables by source and the acts by words and recording:\n%s", exported)
	}

	before := len(srv.Requests())
	out := filepath.Join(dir, "results")
	res := runCLI(t, map[string]string{"PORTAL_PASSWORD": varsPassword}, "run", "--out", out, file)
	if res.code != 0 {
		t.Fatalf("run the export: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("the replay made %d model requests", n)
	}
	for i, r := range srv.Requests() {
		if strings.Contains(string(r.Body), varsPassword) {
			t.Errorf("model request %d holds the password", i)
		}
	}
	s.printed["export"], s.printed["run"] = exported, []byte(res.stdout+res.stderr)
	sweepForSecret(t, varsPassword, s.state, s.printed)
	sweepForSecret(t, varsPassword, dir, nil)
}

func compactJSON(raw json.RawMessage) string {
	var b strings.Builder
	var v any
	_ = json.Unmarshal(raw, &v)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// A session's click by ref is exported as the act in words a person would write with its
// recording: after the site renamed the button, `run` without a model fails naming the
// words; with a model it heals and reports it, --update writes the new recording, and the
// file then replays without a model.
func TestSessionExportHealsWhenThePageChanged(t *testing.T) {
	var label atomic.Value
	label.Store("Sign in")
	base := healSite(t, &label)
	s := newSessionCLI(t)
	id, open := s.open(base + "/")
	click := s.do(id, fmt.Sprintf(`{"click":%q}`, outlineRef(t, open.str("outline"), "button", "Sign in")))
	if click.code != 0 || click.str("act") != `Click the "Sign in" button` {
		t.Fatalf("click: exit %d\n%s", click.code, click.stdout)
	}
	s.do(id, `{"op":"assert","request":{"kind":"textContains","value":"Welcome"}}`)
	dir := t.TempDir()
	file := filepath.Join(dir, "signin.json")
	s.exportTo(id, file)

	label.Store("Log in")
	res, rep := runHeal(t, file)
	if res.code == 0 || !strings.Contains(res.stdout+res.stderr, `Click the \"Sign in\" button`) && !strings.Contains(res.stdout+res.stderr, `Click the "Sign in" button`) {
		t.Fatalf("without a model: exit %d, want a failure naming the words\n%s%s", res.code, res.stdout, res.stderr)
	}
	if len(rep.Scenarios) != 1 || rep.Scenarios[0].Status != "failed" {
		t.Fatalf("without a model the scenario did not fail")
	}

	srv := modeltest.Start(t, clickButton)
	res, rep = runHeal(t, file, append(modelArgs(srv), "--update")...)
	if res.code != 0 {
		t.Fatalf("with a model and --update: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var healed bool
	for _, op := range rep.Scenarios[0].Operations {
		if op.Healed != nil && strings.Contains(op.Healed.From, "Sign in") && strings.Contains(op.Healed.To, "Log in") {
			healed = true
		}
	}
	if !healed {
		t.Errorf("the report does not say the act healed from Sign in to Log in:\n%s", res.stdout)
	}
	updated, _ := os.ReadFile(file)
	if !strings.Contains(string(updated), `"name": "Log in"`) && !strings.Contains(string(updated), `"name":"Log in"`) {
		t.Fatalf("--update did not write the healed recording:\n%s", updated)
	}
	again := len(srv.Requests())
	if res, _ := runHeal(t, file); res.code != 0 || len(srv.Requests()) != again {
		t.Errorf("the updated file: exit %d, %d model requests\n%s%s", res.code, len(srv.Requests())-again, res.stdout, res.stderr)
	}
}
