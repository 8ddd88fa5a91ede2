package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// modelKey is the test's model API key: it reaches the model endpoint (the Authorization
// header) and nothing else.
const (
	modelKeyEnv = "FB_SESSION_MODEL_KEY"
	modelKey    = "sk-session-test-Zq81xV"
)

// An act in words in a session with a model: `session open --model openai:… --model-api-key-env
// K`, then `do {"act":"Click the Log in button"}` with K set in that do's environment only.
// The scripted model calls act on the button by ref; the do is a one-action task whose turn
// receipts and actions are in the output and the history; the export holds its words and the act it dispatched, by role
// and exact name, not the task, and replays with `run` and no model. A do without K fails
// model_failed naming K. The key is in no stdout or stderr, no state-directory file, the export
// or the run's output, and in no recorded request body (only the endpoint's header has it).
func TestSessionActInWordsWithAModel(t *testing.T) {
	base := shopServer(t, sessionPassword)
	srv := modeltest.Start(t,
		modeltest.Step{Tool: "act", Args: map[string]any{"action": "click", "ref": "e3"}, InputTokens: 120, OutputTokens: 9},
		modeltest.Step{Tool: "done", Args: map[string]any{}},
	)
	cfg := srv.Config("openai", modelKeyEnv)
	s := newSessionCLI(t)
	id, open := s.open(base+"/shop/", "--model", "openai:"+cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", modelKeyEnv)
	if !strings.Contains(open.str("outline"), `button [e3] "Log in"`) {
		t.Fatalf("open: not the sign-in page:\n%s", open.stdout)
	}
	rec := s.record(id)
	if m := rec.Options.Model; m == nil || m.Provider != "openai" || m.Model != cfg.Model || m.BaseURL != cfg.BaseURL || m.APIKeyEnv != modelKeyEnv {
		t.Errorf("session.json model %+v, want %+v", rec.Options.Model, cfg)
	}
	if l, _ := s.listed(id)["model"].(map[string]any); l["provider"] != "openai" || l["model"] != cfg.Model {
		t.Errorf("list model %v", l)
	}
	if d := s.run(sessionCmdOpts{}, "session", "describe", id); d.str("model", "model") != cfg.Model {
		t.Errorf("describe model:\n%s", d.stdout)
	}

	// Without the key in the do's environment the task fails, naming the variable; nothing
	// reached the endpoint.
	nokey := s.do(id, `{"act":"Click the Log in button"}`)
	if nokey.code != 1 || nokey.str("error", "cause") != "model_failed" || !strings.Contains(nokey.str("error", "message"), modelKeyEnv) {
		t.Fatalf("an act in words without %s: exit %d\n%s", modelKeyEnv, nokey.code, nokey.stdout)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the endpoint got %d requests without a key", n)
	}

	act := s.run(sessionCmdOpts{stdin: `{"act":"Click the Log in button"}`, env: []string{modelKeyEnv + "=" + modelKey}}, "session", "do", id)
	if act.code != 0 || act.str("status") != sessions.StatusDone || act.str("op") != "task" {
		t.Fatalf("an act in words: exit %d\n%s", act.code, act.stdout)
	}
	if act.str("receipt", "role") != "button" || act.str("receipt", "name") != "Log in" {
		t.Errorf("the receipt does not name the button:\n%s", act.stdout)
	}
	turns, _ := act.obj["turns"].([]any)
	if first, _ := turnsAt(turns, 0); len(turns) == 0 || first["tool"] != "act" || first["inputTokens"] != float64(120) {
		t.Errorf("do's turns: %v", turns)
	}
	actions, _ := act.obj["actions"].([]any)
	if first, _ := turnsAt(actions, 0); len(actions) != 1 || first["turn"] != float64(1) || first["outcome"] == nil ||
		first["receipt"].(map[string]any)["name"] != "Log in" {
		t.Errorf("do's actions, want the one click on Log in: %v", actions)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 || !strings.Contains(reqs[0].Header.Get("Authorization"), modelKey) {
		t.Fatalf("the endpoint did not get the key the do sent (%d requests)", len(reqs))
	}
	for i, r := range reqs {
		if bytes.Contains(r.Body, []byte(modelKey)) {
			t.Errorf("request %d's body holds the key", i)
		}
	}
	history, err := os.ReadFile(filepath.Join(s.sessionDir(id), "history.jsonl"))
	if err != nil || !strings.Contains(string(history), `"turns":[{"turn":1,"tool":"act"`) || !strings.Contains(string(history), `{"act":"Click the Log in button"}`) ||
		!strings.Contains(string(history), `"actions":[{"turn":1,"receipt":{"action":"click","ref":"e3","role":"button","name":"Log in"}`) {
		t.Errorf("history.jsonl keeps the act in words, its turns and its actions (%v):\n%s", err, history)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "act.json")
	exported, ops := s.exportTo(id, file)
	var last bytes.Buffer
	if len(ops) == 2 {
		_ = json.Compact(&last, ops[1])
	}
	if len(ops) != 2 || last.String() != `{"op":"act","words":"Click the Log in button","request":{"action":"click","target":{"exact":true,"name":"Log in","role":"button"}}}` || bytes.Contains(exported, []byte(`"task"`)) {
		t.Errorf("the export is not the navigate and the act in words with the act the task dispatched as its recording (the failed one left out):\n%s", exported)
	}
	cmd := exec.Command(s.bin, "run", "--out", filepath.Join(dir, "results"), file)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, modelKeyEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("run the export without a model: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	s.printed["run"], s.printed["export"] = out, exported
	sweepForSecret(t, modelKey, s.state, s.printed)
	sweepForSecret(t, modelKey, dir, nil)
}

func turnsAt(turns []any, i int) (map[string]any, bool) {
	if i >= len(turns) {
		return nil, false
	}
	m, ok := turns[i].(map[string]any)
	return m, ok
}
