package scenario

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// modelResult is what a task's or extract's result says about its turns and actions, read
// from the report's JSON: never the data (nor a typed literal, which no result holds).
type modelResult struct {
	Turns         []transport.TurnReceipt    `json:"turns"`
	Actions       []transport.TaskAction     `json:"actions"`
	Postcondition *transport.Postcondition   `json:"postcondition"`
	Citations     map[string]json.RawMessage `json:"citations"`
}

// Turns is a task's or extract's turn receipts: its result's on success, its error's on
// failure (nil for any other op, and for one refused before a turn, e.g. model_required).
func (o OperationReport) Turns() []transport.TurnReceipt {
	if o.Op != transport.OpTask && o.Op != transport.OpExtract {
		return nil
	}
	if o.Error != nil {
		return o.Error.Turns
	}
	var r modelResult
	if json.Unmarshal(o.Result, &r) != nil {
		return nil
	}
	return r.Turns
}

// Actions is a task's accounting, the actions it dispatched: its result's on success, its
// error's on failure (nil for any other op).
func (o OperationReport) Actions() []transport.TaskAction {
	if o.Op != transport.OpTask {
		return nil
	}
	if o.Error != nil {
		return o.Error.Actions
	}
	var r modelResult
	if json.Unmarshal(o.Result, &r) != nil {
		return nil
	}
	return r.Actions
}

// ActionLine is one dispatched action as the text report shows it: `turn 1: click button
// "Delete all" (e3): unchanged, +0 −0 lines` (a navigate names its url). The element's role
// and name are the page's, clipped.
func ActionLine(a transport.TaskAction) string {
	what := a.Receipt.Action + " " + a.Receipt.Role + " " + strconv.Quote(clipSummary(a.Receipt.Name)) + " (" + a.Receipt.Ref + ")"
	if a.URL != "" || a.Receipt.Ref == "" {
		what = a.Receipt.Action + " " + clipSummary(a.URL)
	}
	line := fmt.Sprintf("turn %d: %s: %s", a.Turn, what, a.Outcome)
	if a.Outcome == transport.ActionChanged || a.Outcome == transport.ActionUnchanged {
		line += fmt.Sprintf(", +%d −%d lines", a.Diff.Added, a.Diff.Removed)
		if a.Diff.DocumentChange {
			line += ", a new document"
		}
	}
	return line
}

// TurnSummary is one line on what a task's or extract's turns did and cost, as the text and
// HTML reports show it: "task: 3 turns, 2 actions, 1534 in / 210 out tokens, postcondition
// text "Welcome" held", or for a failure the turn and code that ended it (a task's actions
// counted either way). It is content-free
// (the postcondition is the scenario file's); "" when there were no turns.
func (o OperationReport) TurnSummary() string {
	turns := o.Turns()
	if len(turns) == 0 {
		return ""
	}
	in, out := 0, 0
	for _, t := range turns {
		in += t.InputTokens
		out += t.OutputTokens
	}
	parts := []string{count(len(turns), "turn")}
	if o.Op == transport.OpTask {
		parts = append(parts, count(len(o.Actions()), "action"))
	}
	var r modelResult
	if o.Error == nil {
		_ = json.Unmarshal(o.Result, &r)
	}
	parts = append(parts, fmt.Sprintf("%d in / %d out tokens", in, out))
	switch last := turns[len(turns)-1]; {
	case o.Error != nil:
		tool := last.Tool
		if tool == "" {
			tool = "no tool"
		}
		parts = append(parts, fmt.Sprintf("turn %d (%s) ended %s", last.Turn, tool, last.Outcome))
	case r.Postcondition != nil:
		parts = append(parts, "postcondition "+r.Postcondition.Kind+" "+strconv.Quote(clipSummary(r.Postcondition.Value))+" held")
	case o.Op == transport.OpExtract:
		parts = append(parts, count(len(r.Citations), "value")+" cited")
	}
	return o.Op + ": " + strings.Join(parts, ", ")
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
