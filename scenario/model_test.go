package scenario

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestModelPrecedence: --model wins over a scenario's "model", which wins over the run
// config's, each whole; the session and the report get the result, the report provider
// and name only.
func TestModelPrecedence(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		ConfigName:  `{"version":1,"model":{"provider":"openai","model":"cfg-model","baseUrl":"http://127.0.0.1:11434/v1"}}`,
		"bare.json": `{"version":1,"id":"bare","operations":[{"op":"navigate","request":{"url":"http://127.0.0.1:1/"}}]}`,
		"own.json": `{"version":1,"id":"own","model":{"provider":"anthropic","model":"own-model","apiKeyEnv":"OWN_KEY"},
			"operations":[{"op":"navigate","request":{"url":"http://127.0.0.1:1/"}}]}`,
	})
	cfg, err := LoadConfig(filepath.Join(dir, ConfigName))
	if err != nil {
		t.Fatal(err)
	}
	flag := &model.Config{Provider: "openai", Model: "flag-model"}
	cases := []struct {
		file string
		over Overrides
		want model.Config
	}{
		{"bare.json", Overrides{Config: cfg}, model.Config{Provider: "openai", Model: "cfg-model", BaseURL: "http://127.0.0.1:11434/v1"}},
		{"own.json", Overrides{Config: cfg}, model.Config{Provider: "anthropic", Model: "own-model", APIKeyEnv: "OWN_KEY"}},
		{"own.json", Overrides{Config: cfg, Model: flag}, *flag},
		{"bare.json", Overrides{Model: flag}, *flag},
	}
	for _, c := range cases {
		l, err := LoadWith(filepath.Join(dir, c.file), c.over)
		if err != nil {
			t.Fatal(err)
		}
		if l.Model == nil || *l.Model != c.want {
			t.Errorf("%s: model %+v, want %+v", c.file, l.Model, c.want)
		}
		if m := l.sessionSpec().Model; m == nil || *m != c.want {
			t.Errorf("%s: the session gets %+v, want %+v", c.file, m, c.want)
		}
	}
	l, err := LoadWith(filepath.Join(dir, "bare.json"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Model != nil || l.sessionSpec().Model != nil {
		t.Errorf("no model anywhere, yet the session gets %+v", l.Model)
	}
	// The report names provider and model only: never the endpoint or the key variable.
	got, _ := json.Marshal(modelInfo(&model.Config{Provider: "anthropic", Model: "m", BaseURL: "http://h:1/v1", APIKeyEnv: "OWN_KEY"}))
	if string(got) != `{"provider":"anthropic","model":"m"}` {
		t.Errorf("report model %s", got)
	}
}

// TestModelRefusals: a malformed "model" in a scenario or a run config is refused with the
// file and the field path; an API key itself has no field.
func TestModelRefusals(t *testing.T) {
	cases := []struct{ name, model, path, msg string }{
		{"provider", `{"provider":"ollama","model":"m"}`, "model.provider", `expected "openai" or "anthropic"`},
		{"no model", `{"provider":"openai","model":" "}`, "model.model", "model's name"},
		{"credentials in baseUrl", `{"provider":"openai","model":"m","baseUrl":"http://u:p@127.0.0.1:1/v1"}`, "model.baseUrl", "without credentials"},
		{"apiKeyEnv", `{"provider":"openai","model":"m","apiKeyEnv":"sk-123"}`, "model.apiKeyEnv", "environment variable's name"},
		{"a key itself", `{"provider":"openai","model":"m","apiKey":"sk-123"}`, "model.apiKey", "unknown field"},
		{"missing provider", `{"model":"m"}`, "model", `missing required field "provider"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{
				"s.json":   `{"version":1,"id":"s","model":` + c.model + `,"operations":[{"op":"navigate","request":{"url":"http://127.0.0.1:1/"}}]}`,
				ConfigName: `{"version":1,"model":` + c.model + `}`,
			})
			for _, p := range []string{filepath.Join(dir, "s.json"), filepath.Join(dir, ConfigName)} {
				var err error
				if filepath.Base(p) == ConfigName {
					_, err = LoadConfig(p)
				} else {
					_, err = Load(p)
				}
				var ve *ValidationError
				if !errors.As(err, &ve) || ve.File != p || ve.Path != c.path || !strings.Contains(ve.Message, c.msg) || ve.Code != transport.CodeInvalidRequest {
					t.Errorf("got %v, want %s: %s: …%s…", err, p, c.path, c.msg)
				}
				if strings.Contains(err.Error(), "sk-123") && c.path != "model.apiKeyEnv" {
					t.Errorf("the refusal quotes the value: %v", err)
				}
			}
		})
	}
}

// TestTaskInFiles: task and extract decode in scenario files with the protocol's rules at
// the operation's field path, and a task's url postcondition resolves against the fixture
// like a step's.
func TestTaskInFiles(t *testing.T) {
	file := func(op string) []byte {
		return []byte(`{"version":1,"id":"t","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[
			{"op":"navigate","request":{"url":"/form"}},` + op + `]}`)
	}
	l, err := Parse(file(`{"op":"task","request":{"goal":"sign in","postcondition":{"kind":"url","value":"/welcome"}}},
		{"op":"task","request":{"goal":"click Save","maxActions":1,"allow":{"navigation":true,"dialogs":true}}},
		{"op":"extract","request":{"schema":{"type":"object"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Operations[2].req.op.(*transport.Task).Allow; got == nil || !got.Navigation || !got.Dialogs {
		t.Errorf("task allow %+v, want navigation and dialogs", got)
	}
	if got := l.Operations[1].req.op.(*transport.Task).Postcondition.Value; got != "http://127.0.0.1:4310/welcome" {
		t.Errorf("task url postcondition %q, want it resolved against the fixture", got)
	}
	// The report shows a task's goal as its target and what must hold as its value.
	for i, want := range [][2]string{{`"sign in"`, `then url "http://127.0.0.1:4310/welcome"`}, {`"click Save"`, "one action"}} {
		if or := newOperationReport(i+1, &l.Operations[i+1]); or.Target != want[0] || or.Value != want[1] {
			t.Errorf("operations[%d] target %q value %q, want %q %q", i+1, or.Target, or.Value, want[0], want[1])
		}
	}
	cases := []struct {
		name, op, path string
		code           transport.Code
		msg            string
	}{
		{"maxTurns 9", `{"op":"task","request":{"goal":"g","maxTurns":9,"postcondition":{"kind":"text","value":"ok"}}}`, "operations[1].request.maxTurns", transport.CodeBudgetExceeded, "between 1 and 8"},
		{"no goal", `{"op":"task","request":{"postcondition":{"kind":"text","value":"ok"}}}`, "operations[1].request", transport.CodeInvalidRequest, `missing required field "goal"`},
		{"empty goal", `{"op":"task","request":{"goal":"","postcondition":{"kind":"text","value":"ok"}}}`, "operations[1].request.goal", transport.CodeInvalidRequest, "characters"},
		{"no postcondition", `{"op":"task","request":{"goal":"g","maxActions":2}}`, "operations[1].request.postcondition", transport.CodeInvalidRequest, "needs a postcondition"},
		{"allow scroll", `{"op":"task","request":{"goal":"g","maxActions":1,"allow":{"scroll":true}}}`, "operations[1].request.allow.scroll", transport.CodeInvalidRequest, `unknown field "scroll"`},
		{"allow navigation as a string", `{"op":"task","request":{"goal":"g","maxActions":1,"allow":{"navigation":"yes"}}}`, "operations[1].request.allow.navigation", transport.CodeInvalidRequest, "boolean"},
		{"url postcondition not http", `{"op":"task","request":{"goal":"g","postcondition":{"kind":"url","value":"ftp://x/"}}}`, "operations[1].request.postcondition.value", transport.CodeInvalidRequest, "http or https"},
		{"extract without schema", `{"op":"extract","request":{}}`, "operations[1].request", transport.CodeInvalidRequest, `missing required field "schema"`},
		{"extract schema not an object", `{"op":"extract","request":{"schema":[1]}}`, "operations[1].request.schema", transport.CodeInvalidRequest, "JSON Schema object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(file(c.op))
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Path != c.path || ve.Code != c.code || !strings.Contains(ve.Message, c.msg) {
				t.Fatalf("got %v, want %s: …%s… (%s)", err, c.path, c.msg, c.code)
			}
		})
	}
}
