package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Acts with words in a scenario file: the recording replays without a model; when the page
// renamed the button the act heals by its words with the model and --update writes the new
// recording back; without a model it fails naming the words; replayIf gates the replay on a
// variable's value.

const healModelEnv = "FB_HEAL_MODEL_KEY"

// healSite serves one page whose button is named *label; clicking it says Welcome.
func healSite(t *testing.T, label *atomic.Value) string {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Portal</title><button onclick="document.getElementById('out').textContent='Welcome'">%s</button><p id=out></p>`, label.Load())
	}))
	t.Cleanup(site.Close)
	return site.URL
}

// healScenario is the file: navigate, the act in words with its recording (and extra, for
// replayIf), then the check that the click happened.
func healScenario(base, extra string) string {
	return `{
  "version": 1,
  "id": "heal",
  "fixture": {"baseUrl": "` + base + `"},
  "variables": {"user": "alice"},
  "operations": [
    {"op": "navigate", "request": {"url": "/"}},
    {"id": "signin", "op": "act", "words": "Click the Sign in button", "timeoutMs": 1500,
     "request": {"action": "click", "target": {"role": "button", "name": "Sign in", "exact": true}}` + extra + `},
    {"op": "assert", "request": {"kind": "textContains", "value": "Welcome"}}
  ]
}
`
}

// modelArgs are run's flags for srv.
func modelArgs(srv *modeltest.Server) []string {
	cfg := srv.Config("openai", healModelEnv)
	return []string{"--model", "openai:" + cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", healModelEnv}
}

var healEnv = map[string]string{healModelEnv: "sk-heal-K3y-Zr81xQ"}

// clickButton is the model's heal: a click on the page's one button.
var clickButton = modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e1"}}

func runHeal(t *testing.T, file string, args ...string) (cliResult, scenario.Report) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	res := runCLI(t, healEnv, append(append([]string{"run", "--out", out}, args...), file)...)
	return res, readReport(t, filepath.Join(out, "report.json"))
}

// TestActWordsReplaysThenHealsAndUpdates: tests 1 and 2 of the brief.
func TestActWordsReplaysThenHealsAndUpdates(t *testing.T) {
	var label atomic.Value
	label.Store("Sign in")
	base := healSite(t, &label)
	srv := modeltest.Start(t)
	file := writeScenario(t, t.TempDir(), "heal.json", healScenario(base, ""))
	original, _ := os.ReadFile(file)

	// 1. The recording matches: replayed, the model never asked.
	res, rep := runHeal(t, file, modelArgs(srv)...)
	if res.code != 0 || len(srv.Requests()) != 0 || rep.Scenarios[0].Operations[1].Healed != nil {
		t.Fatalf("exit %d, %d model requests, healed %+v: want a plain replay\n%s%s", res.code, len(srv.Requests()), rep.Scenarios[0].Operations[1].Healed, res.stdout, res.stderr)
	}

	// 2. The button is renamed: the act heals by its words and passes.
	label.Store("Log in")
	srv.Script(clickButton)
	res, rep = runHeal(t, file, modelArgs(srv)...)
	op := rep.Scenarios[0].Operations[1]
	if res.code != 0 || op.Status != scenario.StatusPassed || op.Healed == nil {
		t.Fatalf("exit %d, op %+v: want passed and healed\n%s%s", res.code, op, res.stdout, res.stderr)
	}
	if h := op.Healed; h.From != `button "Sign in"` || h.To != `button "Log in"` || h.Reason != scenario.HealElementNotFound || h.Words != "Click the Sign in button" {
		t.Errorf("healed %+v: want from button \"Sign in\" to button \"Log in\" (element_not_found)", h)
	}
	for _, want := range []string{`healed: button "Sign in" → button "Log in" (element_not_found)`, "run with --update", "1 operation(s) healed"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if now, _ := os.ReadFile(file); !bytes.Equal(now, original) {
		t.Fatal("a run without --update changed the file")
	}

	// --update writes the healed recording in place; the rest of the file is untouched.
	srv.Script(clickButton)
	res, _ = runHeal(t, file, append(modelArgs(srv), "--update")...)
	if res.code != 0 || !strings.Contains(res.stdout, "updated: "+file) {
		t.Fatalf("exit %d: want the file named as updated\n%s%s", res.code, res.stdout, res.stderr)
	}
	updated, _ := os.ReadFile(file)
	oldReq := `{"action": "click", "target": {"role": "button", "name": "Sign in", "exact": true}}`
	newReq := `{"action": "click", "target": {"role": "button", "name": "Log in", "exact": true}}`
	if want := strings.Replace(string(original), oldReq, newReq, 1); string(updated) != want {
		t.Fatalf("updated file:\n%s\nwant only the request replaced:\n%s", updated, want)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o644 {
		t.Errorf("the file's mode is %v, want its own 0644", fi.Mode().Perm())
	}

	// The updated file replays without the model.
	asked := len(srv.Requests())
	res, rep = runHeal(t, file, modelArgs(srv)...)
	if res.code != 0 || len(srv.Requests()) != asked || rep.Scenarios[0].Operations[1].Healed != nil {
		t.Fatalf("exit %d, %d new model requests: want the new recording replayed\n%s%s", res.code, len(srv.Requests())-asked, res.stdout, res.stderr)
	}
}

// TestActWordsWithoutModelFailsNamingWords: test 3 — no model, the recording does not
// match: element_not_found, the message naming the words; a words-only act:
// model_required naming them.
func TestActWordsWithoutModelFailsNamingWords(t *testing.T) {
	var label atomic.Value
	label.Store("Log in")
	base := healSite(t, &label)
	dir := t.TempDir()
	file := writeScenario(t, dir, "heal.json", healScenario(base, ""))
	res, rep := runHeal(t, file)
	e := rep.Scenarios[0].Operations[1].Error
	if res.code != 1 || e == nil || e.Code != transport.CodeElementNotFound ||
		!strings.Contains(e.Message, `(act "Click the Sign in button": the recording did not match and no model is configured to heal it)`) {
		t.Fatalf("exit %d, error %+v: want element_not_found naming the words\n%s", res.code, e, res.stdout)
	}
	wordsOnly := writeScenario(t, dir, "words.json", strings.Replace(healScenario(base, ""),
		`,
     "request": {"action": "click", "target": {"role": "button", "name": "Sign in", "exact": true}}`, "", 1))
	res, rep = runHeal(t, wordsOnly)
	e = rep.Scenarios[0].Operations[1].Error
	if res.code != 1 || e == nil || e.Code != transport.CodeModelRequired || !strings.Contains(e.Message, `"Click the Sign in button"`) {
		t.Fatalf("exit %d, error %+v: want model_required naming the words\n%s", res.code, e, res.stdout)
	}
}

// TestActWordsReplayIf: test 4 — a digest of "alice": with user=bob the recording is not
// replayed (the model is asked), with user=alice it is (no model request).
func TestActWordsReplayIf(t *testing.T) {
	var label atomic.Value
	label.Store("Sign in")
	base := healSite(t, &label)
	srv := modeltest.Start(t)
	digest := scenario.VariableDigest("alice", bytes.Repeat([]byte{7}, scenario.DigestSaltBytes))
	file := writeScenario(t, t.TempDir(), "heal.json", healScenario(base, `,
     "variables": {"user": {"var": "user"}}, "replayIf": [{"variable": "user", "digest": "`+digest+`"}]`))

	srv.Script(clickButton)
	res, rep := runHeal(t, file, append(modelArgs(srv), "--var", "user=bob")...)
	op := rep.Scenarios[0].Operations[1]
	if res.code != 0 || len(srv.Requests()) != 1 || op.Healed == nil || op.Healed.Reason != scenario.HealReplayIf {
		t.Fatalf("exit %d, %d model requests, healed %+v: want a heal for replay_if\n%s%s", res.code, len(srv.Requests()), op.Healed, res.stdout, res.stderr)
	}
	res, rep = runHeal(t, file, append(modelArgs(srv), "--var", "user=alice")...)
	if res.code != 0 || len(srv.Requests()) != 1 || rep.Scenarios[0].Operations[1].Healed != nil {
		t.Fatalf("exit %d, %d model requests: want the recording replayed for alice\n%s%s", res.code, len(srv.Requests()), res.stdout, res.stderr)
	}
}
