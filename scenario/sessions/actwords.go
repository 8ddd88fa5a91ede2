package sessions

import (
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// An act in words, {"act":"Click the Sign in button"}, is in a session with a model a
// one-action task: the protocol task {goal: the words, maxActions: 1} with no postcondition,
// which succeeds once its one action was dispatched and verified. The history keeps it as
// written; the export keeps the act the task dispatched, named by role and exact accessible
// name, so a replay needs no model. Without a model normalize refuses it model_required.

// actInWords reads an act in words (with optional id, when and timeout) as the task entry it
// runs as; ok is false when raw is not one.
func actInWords(raw json.RawMessage) (entry json.RawMessage, ok bool, err error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil, false, nil
	}
	words, isAct := top["act"]
	if _, isOp := top["op"]; isOp || !isAct || len(words) == 0 || words[0] != '"' {
		return nil, false, nil
	}
	var goal string
	if err := json.Unmarshal(words, &goal); err != nil {
		return nil, true, Errorf(CodeInvalidInput, "act: expected what to do, in words")
	}
	req := map[string]any{"goal": goal, "maxActions": 1}
	out := map[string]any{"op": transport.OpTask}
	for k, v := range top {
		switch {
		case k == "act":
		case k == "timeout":
			ms, err := timeoutMs(v)
			if err != nil {
				return nil, true, err
			}
			req["timeoutMs"] = ms // the task's own budget
		case common[k]:
			out[k] = v
		default:
			return nil, true, Errorf(CodeInvalidInput, "act: unknown field %q; an act in words takes \"act\" with optional id, when and timeout", textclip.Clip(k, 40))
		}
	}
	out["request"] = req
	b, err := json.Marshal(out)
	return b, true, err
}

// actExport is the act an act in words dispatched, as the export keeps it
// (scenario.ActRecording: the action on the element named by role and exact accessible
// name, with the text, option or key it used; a navigate as the navigate to its URL), with
// the entry's id and when. ok is false when the task reports no replayable action.
func actExport(entry json.RawMessage, res *transport.TaskResult) (json.RawMessage, bool) {
	if res == nil || len(res.Actions) == 0 {
		return nil, false
	}
	rec, ok := scenario.ActRecording(res.Actions[0], nil)
	if !ok {
		return nil, false
	}
	var out, top map[string]json.RawMessage
	if json.Unmarshal(rec, &out) != nil {
		return nil, false
	}
	_ = json.Unmarshal(entry, &top)
	for _, k := range []string{"id", "when"} {
		if v, ok := top[k]; ok {
			out[k] = v
		}
	}
	b, err := json.Marshal(out)
	return b, err == nil
}

// turnsOf are a task's or extract's turn receipts: from its result, or from the error it
// failed with.
func turnsOf(op string, res transport.Result, err error) []transport.TurnReceipt {
	if err != nil {
		if oe := transport.AsOperationError(op, err); oe != nil {
			return oe.Turns
		}
		return nil
	}
	switch v := res.(type) {
	case *transport.TaskResult:
		return v.Turns
	case *transport.ExtractResult:
		return v.Turns
	}
	return nil
}

// actionsOf are a task's dispatched actions: from its result, or from the error it failed
// with.
func actionsOf(op string, res transport.Result, err error) []transport.TaskAction {
	if err != nil {
		if oe := transport.AsOperationError(op, err); oe != nil {
			return oe.Actions
		}
		return nil
	}
	if v, ok := res.(*transport.TaskResult); ok {
		return v.Actions
	}
	return nil
}
