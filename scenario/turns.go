package scenario

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// modelResult is what a task's or extract's result says about its turns, read from the
// report's JSON: counts only, never the data or a typed literal.
type modelResult struct {
	Turns         []transport.TurnReceipt    `json:"turns"`
	Actions       []json.RawMessage          `json:"actions"`
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

// TurnSummary is one line on what a task's or extract's turns did and cost, as the text and
// HTML reports show it: "task: 3 turns, 2 actions, 1534 in / 210 out tokens, postcondition
// text "Welcome" held", or for a failure the turn and code that ended it. It is content-free
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
	var r modelResult
	if o.Error == nil {
		_ = json.Unmarshal(o.Result, &r)
		if o.Op == transport.OpTask {
			parts = append(parts, count(len(r.Actions), "action"))
		}
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
