package reportview

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// taskReport: a scenario with a model whose first task passed in 3 turns and whose second
// failed on its 2nd turn, and a scenario without a model whose task was refused
// model_required before any turn.
func taskReport(t *testing.T) *scenario.Report {
	res, err := json.Marshal(transport.TaskResult{Tab: "t1",
		Turns: []transport.TurnReceipt{
			{Turn: 1, Tool: "locate", Outcome: "ok", InputTokens: 500, OutputTokens: 70, ModelMs: 410, ObserveMs: 12},
			{Turn: 2, Tool: "act", Outcome: "ok", InputTokens: 510, OutputTokens: 70, ModelMs: 380, ObserveMs: 11, ActionMs: 95},
			{Turn: 3, Tool: "done", Outcome: "ok", InputTokens: 524, OutputTokens: 70, ModelMs: 300, ObserveMs: 10},
		},
		Actions: []transport.TaskAction{
			{Turn: 2, Receipt: transport.Receipt{Action: "type", Ref: "e4", Role: "textbox", Name: "User"}, Outcome: "changed", Diff: transport.OutlineDiff{Added: 1}, Text: "typed literal"},
			{Turn: 2, Receipt: transport.Receipt{Action: "navigate"}, URL: "http://127.0.0.1:4310/welcome", Outcome: "changed", Diff: transport.OutlineDiff{Added: 3, Removed: 5, DocumentChange: true}}},
		Postcondition: &transport.Postcondition{Kind: "text", Value: "Welcome"},
	})
	if err != nil {
		t.Fatal(err)
	}
	failed := transport.NewError("task", transport.PhaseExecute, transport.CodeModelFailed, transport.RetryNever, transport.NotAttempted, "the model endpoint answered 500")
	failed.Turns = []transport.TurnReceipt{
		{Turn: 1, Tool: "locate", Outcome: "ok", InputTokens: 400, OutputTokens: 20, ModelMs: 200, ObserveMs: 9},
		{Turn: 2, Tool: "", Outcome: "model_failed", InputTokens: 0, OutputTokens: 0, ModelMs: 50, ObserveMs: 8},
	}
	failed.Actions = []transport.TaskAction{{Turn: 1, Receipt: transport.Receipt{Action: "click", Ref: "e3", Role: "button", Name: "Delete all"}, Outcome: "unchanged"}}
	required := transport.NewError("task", transport.PhaseValidate, transport.CodeModelRequired, transport.RetryNever, transport.NotAttempted, "no model is configured")
	return &scenario.Report{Version: scenario.ReportVersion, RunID: "r", Status: scenario.StatusFailed, Scenarios: []scenario.ScenarioReport{
		{ID: "with-model", File: "a.json", Status: scenario.StatusFailed, Model: &scenario.ModelInfo{Provider: "openai", Model: "gpt-4o-mini"},
			Operations: []scenario.OperationReport{
				{Index: 0, Op: "task", Status: scenario.StatusPassed, Result: res},
				{Index: 1, Op: "task", Status: scenario.StatusFailed, Error: failed},
			}},
		{ID: "no-model", File: "b.json", Status: scenario.StatusFailed, Operations: []scenario.OperationReport{
			{Index: 0, Op: "navigate", Status: scenario.StatusPassed},
			{Index: 1, Op: "task", Status: scenario.StatusFailed, Error: required},
		}},
	}}
}

// TestTextShowsTaskTurns: the text report names the model, sums a failed task's turns on
// one line under its error and lists the actions it dispatched; a task refused before any
// turn has no such line.
func TestTextShowsTaskTurns(t *testing.T) {
	var buf bytes.Buffer
	Text(&buf, taskReport(t), "artifacts")
	out := buf.String()
	for _, want := range []string{
		"model openai:gpt-4o-mini\n",
		"operations[1] task: model_failed: the model endpoint answered 500\n        task: 2 turns, 1 action, 400 in / 20 out tokens, turn 2 (no tool) ended model_failed\n" +
			"          turn 1: click button \"Delete all\" (e3): unchanged, +0 −0 lines\n",
		"operations[1] task: model_required: no model is configured\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "turns,") != 1 {
		t.Errorf("only the model_failed task has turns to show:\n%s", out)
	}
}

// TestHTMLShowsTaskTurns: report.html shows a task's turn summary, its receipts and its
// actions, passed or failed, and nothing of what a task typed.
func TestHTMLShowsTaskTurns(t *testing.T) {
	out := render(t, t.TempDir(), taskReport(t))
	for _, want := range []string{
		`model <b class="mono">openai:gpt-4o-mini</b>`,
		`task: 3 turns, 2 actions, 1534 in / 210 out tokens, postcondition text &#34;Welcome&#34; held`,
		`<td class="num mono">2</td><td class="mono">act</td><td class="mono">ok</td><td class="num">510</td><td class="num">70</td><td class="num">380 ms</td><td class="num">11 ms</td><td class="num">95 ms</td>`,
		`task: 2 turns, 1 action, 400 in / 20 out tokens, turn 2 (no tool) ended model_failed`,
		`<td class="num mono">2</td><td class="mono">type</td><td>textbox <span class="mono">User</span></td><td class="mono">e4</td><td class="mono">changed</td><td class="num">1</td><td class="num">0</td><td></td>`,
		`<td class="num mono">2</td><td class="mono">navigate</td><td><span class="mono">http://127.0.0.1:4310/welcome</span></td><td class="mono"></td><td class="mono">changed</td><td class="num">3</td><td class="num">5</td><td>yes</td>`,
		`<td class="num mono">1</td><td class="mono">click</td><td>button <span class="mono">Delete all</span></td><td class="mono">e3</td><td class="mono">unchanged</td>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if strings.Contains(out, "typed literal") {
		t.Error("report.html shows what a task typed")
	}
}
