package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Judged conditions and uploads into words in a session with the scripted model, on the
// fixture's sign-in form (checkbox "Remember me", file input "Attachment"): an upload into
// words is the model's pick then the by-ref upload, reported with `into`, exported as the
// plain upload by role and exact name, which `run` replays with no model; a when in words
// runs or skips the operation as the model judges it, the export keeps it as written and
// warns; a session without a model refuses both before anything runs.

func extractAnswer(data map[string]any, cites map[string]string) modeltest.Step {
	return modeltest.Step{Tool: transport.ToolExtract, Args: map[string]any{"data": data, "citations": cites}, InputTokens: 80, OutputTokens: 12}
}

func TestSessionJudgedWhenAndUploadInWords(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	srv := modeltest.Start(t)
	cfg := srv.Config("openai", modelKeyEnv)
	s := newSessionCLI(t)
	id, open := s.open(site.URL+"/form", "--model", "openai:"+cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", modelKeyEnv)
	outline := open.str("outline")
	file, remember := outlineRef(t, outline, "file", "Attachment"), outlineRef(t, outline, "checkbox", "Remember me")
	wd := t.TempDir()
	if err := os.WriteFile(filepath.Join(wd, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withKey := func(op string) sessionRun {
		return s.run(sessionCmdOpts{stdin: op, dir: wd, env: []string{modelKeyEnv + "=" + modelKey, "FB_JUDGED_PW=hunter2-judged"}}, "session", "do", id)
	}

	// 0: the upload into words — the model's pick cites the input's ref, then the upload.
	const words = `the "Attachment" file input`
	srv.Script(extractAnswer(map[string]any{"input": "Attachment"}, map[string]string{"/input": file}))
	up := withKey(`{"upload":{"into":"the \"Attachment\" file input","files":["notes.txt"]}}`)
	if up.code != 0 || up.str("status") != sessions.StatusDone || up.str("into") != words ||
		up.str("receipt", "ref") != file || up.str("receipt", "name") != "Attachment" {
		t.Fatalf("upload into words: exit %d; want done into %q on %s\n%s", up.code, words, file, up.stdout)
	}
	if turns, _ := up.obj["turns"].([]any); len(turns) != 1 || turns[0].(map[string]any)["tool"] != transport.ToolExtract {
		t.Errorf("upload into words: turns %v, want the pick's one extract", up.obj["turns"])
	}

	// 1: a when in words the model judges true, citing the checkbox: the check runs.
	srv.Script(extractAnswer(map[string]any{"holds": true}, map[string]string{"/holds": remember}))
	held := withKey(`{"check":"` + remember + `","when":"the form offers to remember me"}`)
	if rc, _ := held.obj["receipt"].(map[string]any); held.code != 0 || held.str("status") != sessions.StatusDone || rc["checked"] != "true" {
		t.Fatalf("a judged when that holds: exit %d\n%s", held.code, held.stdout)
	}
	// 2: one it judges null: skipped, saying why.
	srv.Script(extractAnswer(map[string]any{"holds": nil}, map[string]string{}))
	skipped := withKey(`{"op":"act","request":{"action":"select","target":{"role":"combobox","name":"Plan"},"option":"Pro"},"when":"a cookie banner is shown"}`)
	if skipped.code != 0 || skipped.str("status") != sessions.StatusSkipped || !strings.Contains(skipped.str("skipReason"), "judged by the model") {
		t.Fatalf("a judged when that does not hold: exit %d\n%s", skipped.code, skipped.stdout)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d model requests, want 3 (a pick, two judgements)", n)
	}
	for _, r := range []sessionRun{held, skipped} { // the judgement's tokens are reported
		if turns, _ := r.obj["turns"].([]any); len(turns) != 1 || turns[0].(map[string]any)["tool"] != transport.ToolExtract || turns[0].(map[string]any)["inputTokens"] != float64(80) {
			t.Errorf("a judged when's do: turns %v, want the judgement's one extract", r.obj["turns"])
		}
	}
	// Words holding a secret's value are refused before anything runs.
	secret := withKey(`{"op":"read","variables":{"pw":{"env":"FB_JUDGED_PW"}},"when":"the page greets hunter2-judged"}`)
	secret.want(t, "a when in words holding a secret", 1, sessions.CodeInvalidInput)
	if strings.Contains(secret.stdout, "hunter2") || len(srv.Requests()) != 3 {
		t.Errorf("the secret's refusal shows it, or asked the model:\n%s", secret.stdout)
	}

	// The whole export keeps the judged whens as written and warns; the upload is the plain
	// upload by role and exact name.
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	exported, ops := s.exportTo(id, whole)
	if len(ops) != 4 || !strings.Contains(string(ops[1]), `"target": {`) || !strings.Contains(string(ops[1]), `"name": "Attachment"`) ||
		strings.Contains(string(ops[1]), words) || !strings.Contains(string(ops[2]), `"when": "the form offers to remember me"`) ||
		!strings.Contains(string(ops[3]), `"when": "a cookie banner is shown"`) {
		t.Errorf("the export: want navigate, the upload by role and name, and the two acts with their whens as written:\n%s", exported)
	}
	exp := s.run(sessionCmdOpts{}, "session", "export", id)
	if w := strings.Join(stringsOf(exp.obj["warnings"]), "\n"); !strings.Contains(w, "history operation 1 has a when in words") ||
		!strings.Contains(w, "history operation 2 has a when in words") || !strings.Contains(w, "history operation 0 uploads files") {
		t.Errorf("export warnings:\n%s", w)
	}
	// Without a model, run refuses it before anything runs, naming the words.
	res := runCLI(t, nil, "run", "--out", filepath.Join(dir, "out1"), whole)
	if res.code != exitInvalid || !strings.Contains(res.stderr, `when "the form offers to remember me" is judged by a model`) {
		t.Errorf("run of the export without a model: exit %d; want %d naming the words\n%s%s", res.code, exitInvalid, res.stdout, res.stderr)
	}

	// With the model, run judges them again: the check runs, the select is skipped.
	srv.Script(extractAnswer(map[string]any{"holds": true}, map[string]string{"/holds": remember}), extractAnswer(map[string]any{"holds": nil}, map[string]string{}))
	withModel := exec.Command(s.bin, "run", "--out", filepath.Join(dir, "out3"), "--model", "openai:"+cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", modelKeyEnv, whole)
	withModel.Dir, withModel.Env = wd, append(os.Environ(), modelKeyEnv+"="+modelKey)
	if out, _ := withModel.CombinedOutput(); withModel.ProcessState.ExitCode() != 0 || len(srv.Requests()) != 5 {
		t.Errorf("run of the export with the model: exit %d, %d model requests (want 5)\n%s", withModel.ProcessState.ExitCode(), len(srv.Requests()), out)
	}
	rep := readReport(t, filepath.Join(dir, "out3", "report.json"))
	if ops := rep.Scenarios[0].Operations; len(ops) != 4 || ops[2].Status != "passed" || ops[3].Status != "skipped" || ops[3].SkipReason == "" {
		t.Errorf("the replay's report: %+v; want the check passed and the select skipped", ops)
	}

	// Without the judged operations the export replays with run and no model.
	upload := filepath.Join(dir, "upload.json")
	if e := s.run(sessionCmdOpts{}, "session", "export", id, "--skip", "1", "--skip", "2", "--out", upload); e.code != 0 {
		t.Fatalf("export --skip: exit %d\n%s", e.code, e.stdout)
	}
	cmd := exec.Command(s.bin, "run", "--out", filepath.Join(dir, "out2"), upload)
	cmd.Dir = wd
	if out, _ := cmd.CombinedOutput(); cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("run of the upload's export without a model: exit %d\n%s", cmd.ProcessState.ExitCode(), out)
	}
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("the replay without a model asked the model (%d requests, want 5)", n)
	}
}

// TestSessionWordsWithoutModel: a session without a model refuses a when in words and an
// upload into words with model_required, naming what needs the model, before anything runs
// or is recorded.
func TestSessionWordsWithoutModel(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/form")
	judged := s.do(id, `{"op":"read","when":"the cookie banner is shown"}`)
	judged.want(t, "a when in words without a model", 1, sessions.CodeModelRequired)
	if !strings.Contains(judged.str("error", "message"), `when "the cookie banner is shown" is judged by a model`) {
		t.Errorf("the refusal does not name the words:\n%s", judged.stdout)
	}
	up := s.do(id, `{"upload":{"into":"the Attachment input","files":["notes.txt"]}}`)
	up.want(t, "an upload into words without a model", 1, sessions.CodeModelRequired)
	if r := s.do(id, `{"op":"read"}`); r.code != 0 || r.obj["index"] != float64(0) {
		t.Errorf("the refusals were recorded (the next operation's index is %v, want 0):\n%s", r.obj["index"], r.stdout)
	}
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
