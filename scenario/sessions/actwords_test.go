package sessions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

func TestActInWordsIsAOneActionTask(t *testing.T) {
	entry, ok, err := actInWords(json.RawMessage(`{"act":"Click the Sign in button","id":"sign","timeout":"5s","when":{"kind":"title","value":"Login"}}`), nil)
	if !ok || err != nil {
		t.Fatalf("ok=%v err=%v", ok, err)
	}
	var got struct {
		Op      string          `json:"op"`
		ID      string          `json:"id"`
		When    json.RawMessage `json:"when"`
		Request transport.Task  `json:"request"`
	}
	if err := json.Unmarshal(entry, &got); err != nil {
		t.Fatal(err)
	}
	r := got.Request
	if got.Op != transport.OpTask || got.ID != "sign" || len(got.When) == 0 || r.Goal != "Click the Sign in button" || r.MaxActions != 1 || r.Postcondition != nil || r.TimeoutMs != 5000 {
		t.Fatalf("entry %s", entry)
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("the task does not validate: %v", err)
	}
	for _, in := range []string{`{"click":"e1"}`, `{"op":"act","request":{}}`, `{"act":{"x":1}}`} {
		if _, ok, _ := actInWords(json.RawMessage(in), nil); ok {
			t.Errorf("%s read as an act in words", in)
		}
	}
	if _, _, err := actInWords(json.RawMessage(`{"act":"Click it","goal":"x"}`), nil); err == nil || !strings.Contains(err.Error(), `"goal"`) {
		t.Fatalf("an unknown field: got %v", err)
	}
}

func TestActExportNamesTheElementExactly(t *testing.T) {
	entry := json.RawMessage(`{"id":"a","op":"task","request":{"goal":"g","maxActions":1},"when":{"kind":"title","value":"T"}}`)
	cases := []struct {
		action transport.TaskAction
		want   string
	}{
		{transport.TaskAction{Receipt: transport.Receipt{Action: "click", Ref: "e3", Role: "button", Name: "Sign in"}},
			`{"id":"a","op":"act","request":{"action":"click","target":{"exact":true,"name":"Sign in","role":"button"}},"when":{"kind":"title","value":"T"},"words":"g"}`},
		{transport.TaskAction{Receipt: transport.Receipt{Action: "type", Ref: "e4", Role: "textbox", Name: "User"}, Text: "ada"},
			`{"id":"a","op":"act","request":{"action":"type","target":{"exact":true,"name":"User","role":"textbox"},"text":"ada"},"when":{"kind":"title","value":"T"},"words":"g"}`},
		{transport.TaskAction{Receipt: transport.Receipt{Action: "select", Role: "combobox", Name: "Colour", Option: "Blue"}},
			`{"id":"a","op":"act","request":{"action":"select","option":"Blue","target":{"exact":true,"name":"Colour","role":"combobox"}},"when":{"kind":"title","value":"T"},"words":"g"}`},
		{transport.TaskAction{Receipt: transport.Receipt{Action: "press", Role: "textbox", Name: "Search", Key: "Enter"}},
			`{"id":"a","op":"act","request":{"action":"press","key":"Enter","target":{"exact":true,"name":"Search","role":"textbox"}},"when":{"kind":"title","value":"T"},"words":"g"}`},
	}
	for _, c := range cases {
		x, ok := actExport(entry, &transport.TaskResult{Actions: []transport.TaskAction{c.action}})
		if !ok {
			t.Fatalf("%s: not exported", c.action.Receipt.Action)
		}
		if !ok || string(x) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.action.Receipt.Action, x, c.want)
		}
		// It replays as written: the file validates with it and without a model.
		e := done(0, string(x), site+"/")
		exportOK(t, record(site+"/"), []Entry{e}, ExportOptions{})
	}
	if _, ok := actExport(entry, &transport.TaskResult{}); ok {
		t.Fatal("a task with no action exported")
	}
}

// actExport is wordsExport of an act in words "g" without variables.
func actExport(entry json.RawMessage, res *transport.TaskResult) (json.RawMessage, bool) {
	x, replays, ok := wordsExport(entry, "g", nil, res, nil, map[string]string{})
	return x, ok && replays
}

func TestTurnsOfResultAndFailure(t *testing.T) {
	turns := []transport.TurnReceipt{{Turn: 1, Tool: "act", Outcome: "ok"}}
	if got := turnsOf(transport.OpTask, &transport.TaskResult{Turns: turns}, nil); len(got) != 1 {
		t.Fatalf("result: %v", got)
	}
	oe := transport.NewError(transport.OpTask, transport.PhaseExecute, transport.CodeModelFailed, transport.RetryNever, transport.NotAttempted, "x")
	oe.Turns = turns
	if got := turnsOf(transport.OpTask, nil, oe); len(got) != 1 {
		t.Fatalf("failure: %v", got)
	}
}

func TestExportWarnsThatATaskNeedsAModel(t *testing.T) {
	task := `{"op":"task","request":{"goal":"Sign in","postcondition":{"kind":"title","value":"Home"}}}`
	x := exportOK(t, record(site+"/"), []Entry{done(0, task, site+"/"), done(1, clickSign, site+"/")}, ExportOptions{})
	if len(x.Warnings) != 1 || !strings.Contains(x.Warnings[0], "history operation 0 is task") || !strings.Contains(x.Warnings[0], "needs a model") {
		t.Fatalf("warnings %q", x.Warnings)
	}
	if !strings.Contains(string(x.File), `"goal": "Sign in"`) {
		t.Fatalf("the task is not kept as written:\n%s", x.File)
	}
}

func TestListShowsTheModelByName(t *testing.T) {
	rec := record(site + "/")
	rec.Options.Model = &model.Config{Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "K"}
	got := ListOf([]Record{rec}).Sessions[0].Model
	if got == nil || *got != (ModelName{Provider: "openai", Model: "gpt-4o-mini"}) {
		t.Fatalf("list model %+v", got)
	}
	if ListOf([]Record{record(site + "/")}).Sessions[0].Model != nil {
		t.Fatal("a session without a model lists one")
	}
}

// An act in words the model answered with a navigate ("Go to the pricing page") is exported
// as the navigate it dispatched: an act has no navigate action and a target with no role or
// name, so exported as an act it would not replay.
func TestActExportOfANavigate(t *testing.T) {
	entry := json.RawMessage(`{"id":"a","op":"task","request":{"goal":"g","maxActions":1}}`)
	a := transport.TaskAction{Receipt: transport.Receipt{Action: "navigate"}, URL: site + "/pricing"}
	x, ok := actExport(entry, &transport.TaskResult{Actions: []transport.TaskAction{a}})
	if want := `{"id":"a","op":"navigate","request":{"url":"` + site + `/pricing"}}`; !ok || string(x) != want {
		t.Fatalf("navigate:\n got %s\nwant %s", x, want)
	}
	exportOK(t, record(site+"/"), []Entry{done(0, string(x), site+"/pricing")}, ExportOptions{})
}
