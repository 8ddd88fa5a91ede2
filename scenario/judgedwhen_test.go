package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Judged conditions (a when in words) against real Chromium and the scripted model: the
// model's cited true runs the operation; null skips it with its skipReason; an answer the
// runtime refuses fails it, naming the words; without a model the words are named, at load
// when the run knows no model can come, else when the run reaches them.

const judgedKeyEnv = "FB_JUDGED_MODEL_KEY"

// bannerPage has a cookie banner and two buttons (e1 "Accept cookies", e2 "Subscribe"), each
// of which says what was clicked in #out.
const bannerPage = `<!doctype html><title>Shop</title><main><p>We use cookies.</p>
<button onclick="document.getElementById('out').textContent+=' Accepted'">Accept cookies</button>
<button onclick="document.getElementById('out').textContent+=' Subscribed'">Subscribe</button>
<p id=out></p></main>`

func bannerSite(t *testing.T) string {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(bannerPage))
	}))
	t.Cleanup(site.Close)
	return site.URL
}

// modelEnv opens real sessions in the shared browser with the scenario's model, its key
// read from a lookup that has only that key.
func modelEnv(t *testing.T) Env {
	lookup := func(name string) (string, bool) {
		if name == judgedKeyEnv {
			return "sk-judged-key-0123456789", true
		}
		return "", false
	}
	return Env{Lookup: lookup, Open: func(ctx context.Context, spec SessionSpec) (Session, error) {
		b, err := runtimetest.Browser()
		if err != nil {
			t.Error(err)
			return nil, err
		}
		bin, err := runtimetest.Binary()
		if err != nil {
			return nil, err
		}
		return runtime.Open(ctx, runtime.Options{CDPURL: b.WebSocketURL(), WorkerPath: bin, WorkerArgs: []string{"worker"}, AllowedOrigins: spec.Origins,
			Subresources: spec.Subresources, ServiceWorkers: spec.ServiceWorkers, Model: spec.Model, LookupEnv: lookup})
	}}
}

// judgedScenario is the file: the page, then ops; with a model at srv when srv is not nil.
func judgedScenario(base string, srv *modeltest.Server, ops ...string) []byte {
	m := ""
	if srv != nil {
		cfg := srv.Config("openai", judgedKeyEnv)
		m = fmt.Sprintf(`"model": {"provider": "openai", "model": %q, "baseUrl": %q, "apiKeyEnv": %q},`, cfg.Model, cfg.BaseURL, judgedKeyEnv)
	}
	return []byte(`{"version": 1, "id": "judged", "fixture": {"baseUrl": "` + base + `"}, ` + m + `
  "operations": [{"op": "navigate", "request": {"url": "/"}}, ` + strings.Join(ops, ", ") + `]}`)
}

const (
	clickAccept    = `{"op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Accept cookies"}}, "when": "the cookie banner is shown"}`
	clickSubscribe = `{"op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Subscribe"}}, "when": "a newsletter offer is shown"}`
)

func judge(holds any, cites map[string]string) modeltest.Step {
	return modeltest.Step{Tool: transport.ToolExtract, Args: map[string]any{"data": map[string]any{"holds": holds}, "citations": cites}, InputTokens: 50, OutputTokens: 9}
}

// TestJudgedWhenRunsOrSkips: true citing the banner's button runs the click; null skips the
// other with the judged skipReason and leaves the page untouched; each condition was one
// model request whose tool schema carried the words.
func TestJudgedWhenRunsOrSkips(t *testing.T) {
	base := bannerSite(t)
	srv := modeltest.Start(t, judge(true, map[string]string{"/holds": "e1"}), judge(nil, map[string]string{}))
	l, err := Parse(judgedScenario(base, srv, clickAccept, clickSubscribe,
		`{"op": "assert", "request": {"kind": "textContains", "value": "Accepted", "wait": "none"}}`,
		`{"op": "assert", "request": {"kind": "textContains", "value": "Subscribed", "not": true, "wait": "none"}}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), l, modelEnv(t))
	if rep.Status != StatusPassed {
		for _, op := range rep.Operations {
			t.Logf("operations[%d] %s %s %q %v", op.Index, op.Op, op.Status, op.SkipReason, op.Error)
		}
		t.Fatalf("status %s, error %v", rep.Status, rep.Error)
	}
	if op := rep.Operations[1]; op.Status != StatusPassed || op.SkipReason != "" {
		t.Errorf("the condition that holds: status %s, skipReason %q; want passed", op.Status, op.SkipReason)
	}
	if op := rep.Operations[2]; op.Status != StatusSkipped || op.SkipReason != skippedByJudgedWhen {
		t.Errorf("the condition that does not hold: status %s, skipReason %q; want skipped, %q", op.Status, op.SkipReason, skippedByJudgedWhen)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want one per condition", len(reqs))
	}
	for i, words := range []string{"the cookie banner is shown", "a newsletter offer is shown"} {
		if !bytes.Contains(reqs[i].Body, []byte(words)) {
			t.Errorf("model request %d does not show the model the words %q", i, words)
		}
	}
}

// TestJudgedWhenUnprovenAnswerFails: true without a citation is refused by the extract's
// check: the operation fails (task_refused, nothing attempted) naming the words, never a
// skip, and the click did not happen.
func TestJudgedWhenUnprovenAnswerFails(t *testing.T) {
	base := bannerSite(t)
	srv := modeltest.Start(t, judge(true, map[string]string{}))
	l, err := Parse(judgedScenario(base, srv, clickAccept))
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), l, modelEnv(t))
	op := rep.Operations[1]
	if rep.Status != StatusFailed || op.Status != StatusFailed || op.Error == nil || op.Error.Code != transport.CodeTaskRefused ||
		op.Error.MutationState != transport.NotAttempted || !strings.Contains(op.Error.Message, `when "the cookie banner is shown" could not be judged`) {
		t.Fatalf("status %s, operation %s, error %+v: want failed task_refused naming the words", rep.Status, op.Status, op.Error)
	}
}

// TestJudgedWhenWithoutModel: a run that knows every model source (run's ModelKnown) refuses
// the file at load, model_required at operations[1].when naming the words; a load that
// does not (validate, a session's export) accepts it, and running it without a model fails
// the operation model_required naming the words.
func TestJudgedWhenWithoutModel(t *testing.T) {
	base := bannerSite(t)
	path := filepath.Join(t.TempDir(), "judged.json")
	if err := os.WriteFile(path, judgedScenario(base, nil, clickAccept), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadWith(path, Overrides{ModelKnown: true})
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Code != transport.CodeModelRequired || ve.Path != "operations[1].when" || !strings.Contains(ve.Message, `when "the cookie banner is shown" is judged by a model`) {
		t.Fatalf("load knowing no model can come: %v; want model_required at operations[1].when naming the words", err)
	}
	l, err := Load(path)
	if err != nil {
		t.Fatalf("load that does not know the run's model: %v", err)
	}
	rep := Run(context.Background(), l, modelEnv(t))
	op := rep.Operations[1]
	if op.Status != StatusFailed || op.Error == nil || op.Error.Code != transport.CodeModelRequired || !strings.Contains(op.Error.Message, `"the cookie banner is shown"`) {
		t.Fatalf("operation %s, error %+v: want model_required naming the words", op.Status, op.Error)
	}
}

// TestJudgedWhenRefusedAtLoad: words are 1–500 characters; words holding a secret's value
// are refused (they are shown to the model).
func TestJudgedWhenRefusedAtLoad(t *testing.T) {
	for _, words := range []string{`""`, `"   "`, `"` + strings.Repeat("w", 501) + `"`} {
		_, err := Parse(judgedScenario("http://a.test", nil, `{"op": "read", "when": `+words+`}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != "operations[1].when" || !strings.Contains(ve.Message, "1–500 characters") {
			t.Errorf("when %.20s…: %v; want refused at operations[1].when", words, err)
		}
	}
	l, err := Parse(judgedScenario("http://a.test", nil,
		`{"op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Password"}, "text": {"env": "PW"}}}`,
		`{"op": "read", "when": "the page greets hunter2-secret"}`))
	if err != nil {
		t.Fatal(err)
	}
	err = CheckSecrets(l, func(string) (string, bool) { return "hunter2-secret", true })
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[2].when" || strings.Contains(ve.Message, "hunter2") {
		t.Fatalf("words holding a secret's value: %v; want refused at operations[2].when without the value", err)
	}
}
