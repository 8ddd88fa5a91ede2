package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestRunTaskWithScriptedModel runs task through `fastbrowser run` with a model named by
// --model, against real Chromium and a scripted model server: a three-turn task passes, a
// task whose model claims success while the postcondition does not hold fails
// postcondition_failed, and neither the API key nor a secret typed into the page (and shown
// by it, so it is in the outline the model is sent, masked) reaches a model request body,
// stdout, stderr, or any file the run wrote.
func TestRunTaskWithScriptedModel(t *testing.T) {
	const key, user = "sk-run-K3y-Zr81xQ", "u5er-S3cret-Name-42"
	site := runtimetest.Fixture()
	defer site.Close()
	srv := modeltest.Start(t,
		// "signs-in": locate, type a note, click Sign in (the fixture /form's refs: Notes e5,
		// Sign in e7); the title then is the postcondition.
		modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Sign in", "action": "click"}, InputTokens: 300, OutputTokens: 10},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": "e5", "text": "hello"}, InputTokens: 310, OutputTokens: 11},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e7"}, InputTokens: 320, OutputTokens: 12},
		// "claims": on the welcome page, which shows the secret username, the model says done.
		modeltest.Step{Tool: "done", InputTokens: 330, OutputTokens: 13},
	)
	dir := t.TempDir()
	fx := fmt.Sprintf(`"fixture":{"baseUrl":%q}`, site.URL)
	typeUser := `{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":{"env":"FB_RUN_USER"}}}`
	writeScenario(t, dir, "a-signs-in.json", `{"version":1,"id":"signs-in",`+fx+`,"operations":[
		{"op":"navigate","request":{"url":"/form"}},
		`+typeUser+`,
		{"op":"task","request":{"goal":"Sign in","postcondition":{"kind":"title","value":"Welcome"}}},
		{"op":"assert","request":{"kind":"textContains","value":"Welcome, "}}]}`)
	writeScenario(t, dir, "b-claims.json", `{"version":1,"id":"claims",`+fx+`,"operations":[
		{"op":"navigate","request":{"url":"/form"}},
		`+typeUser+`,
		{"op":"act","request":{"action":"click","target":{"role":"button","name":"Sign in"}}},
		{"op":"task","request":{"goal":"Sign out","postcondition":{"kind":"text","value":"Signed out"}}}]}`)
	out := filepath.Join(dir, "out")
	cfg := srv.Config("openai", "FB_RUN_MODEL_KEY")
	res := runCLI(t, map[string]string{"FB_RUN_MODEL_KEY": key, "FB_RUN_USER": user},
		"run", "--jobs", "1", "--out", out, "--model", "openai:"+cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", "FB_RUN_MODEL_KEY", dir)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1 (one scenario fails)\n%s%s", res.code, res.stdout, res.stderr)
	}
	t.Logf("stdout:\n%s", res.stdout)
	r := readReport(t, filepath.Join(out, "report.json"))
	signsIn, claims := r.Scenarios[0], r.Scenarios[1]
	if signsIn.Status != "passed" {
		t.Fatalf("signs-in %s: %+v", signsIn.Status, signsIn.Operations)
	}
	var task transport.TaskResult
	if err := json.Unmarshal(signsIn.Operations[2].Result, &task); err != nil {
		t.Fatal(err)
	}
	if len(task.Turns) != 3 || len(task.Actions) != 2 || task.Turns[2].InputTokens != 320 || task.Actions[1].Receipt.Name != "Sign in" {
		t.Errorf("the report's task result %+v: want 3 turns with their receipts and 2 actions", task)
	}
	e := claims.Operations[3].Error
	if claims.Status != "failed" || e == nil || e.Code != transport.CodePostconditionFailed || len(e.Turns) != 1 || e.Turns[0].Tool != "done" {
		t.Errorf("claims %s, error %+v: want postcondition_failed with the done turn's receipt", claims.Status, e)
	}
	if r.Scenarios[0].Model == nil || r.Scenarios[0].Model.Provider != "openai" {
		t.Errorf("the report does not name the model: %+v", r.Scenarios[0].Model)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("the model was asked %d times, want 4", len(reqs))
	}
	if !strings.Contains(string(reqs[3].Body), "[secret]") {
		t.Errorf("the last request should show the welcome page with the username masked:\n%s", reqs[3].Body)
	}
	for i, q := range reqs {
		for _, s := range []string{key, user} {
			if strings.Contains(string(q.Body), s) {
				t.Errorf("model request %d's body holds a secret", i+1)
			}
		}
		if q.Header.Get("Authorization") != "Bearer "+key {
			t.Errorf("model request %d is not authorised by the key", i+1)
		}
	}
	outputs := map[string]string{"stdout": res.stdout, "stderr": res.stderr}
	_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			outputs[p] = string(b)
		}
		return nil
	})
	if len(outputs) < 5 {
		t.Fatalf("the run wrote only %d outputs", len(outputs))
	}
	for where, text := range outputs {
		for _, s := range []string{key, user} {
			if strings.Contains(text, s) {
				t.Errorf("%s holds a secret", where)
			}
		}
	}
}
