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
func actInWords(raw json.RawMessage, vars variables) (entry json.RawMessage, ok bool, err error) {
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
	if named := vars.named(goal); len(named) > 0 {
		req["variables"] = named.taskForm()
	}
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

// wordsExport is how an act in words is exported (docs/sessions.md "session export"): its
// words with the recording of the action its task dispatched (scenario.ActRecording: the
// action on the element named by role and exact accessible name, with the text, option or
// key it used), so that `run` replays the recording without a model and heals by the words
// when the page changed: {"op":"act","words":…,"request":…,"variables"?,"replayIf"?}, with
// the entry's id and when. A navigate the model chose is exported as that navigate.
//
// The variables the words name are kept as {"env": NAME} or {"var": name} (defaults gets a
// literal's value, the file's variable); each one the action never used gets a replayIf
// digest of the value it had. An action that used a variable's value in what it acted on
// (or mixed a placeholder into other text) has no recording a replay could trust: the act
// is exported by its words alone (replays false: replaying it needs a model). ok is false
// when the task reports no action.
func wordsExport(entry json.RawMessage, words string, named variables, res *transport.TaskResult, env map[string]string, defaults map[string]string) (out json.RawMessage, replays, ok bool) {
	if res == nil || len(res.Actions) == 0 {
		return nil, false, false
	}
	a := res.Actions[0]
	texts := map[string]*transport.Text{}
	for name, v := range named {
		texts[name] = transport.Literal(v.literal)
		if v.env != "" {
			texts[name] = transport.FromEnv(v.env)
		}
	}
	rec, recorded := scenario.ActRecording(a, texts)
	var x map[string]json.RawMessage
	if recorded && json.Unmarshal(rec, &x) != nil {
		return nil, false, false
	}
	switch {
	case recorded && string(x["op"]) == `"`+transport.OpNavigate+`"`:
		// The model navigated: the navigate it dispatched replays it.
	case recorded:
		x = map[string]json.RawMessage{"op": x["op"], "request": x["request"]}
	case a.Receipt.Action == "" && a.URL == "":
		return nil, false, false
	default:
		x = map[string]json.RawMessage{"op": json.RawMessage(`"` + transport.OpAct + `"`)}
	}
	if string(x["op"]) == `"`+transport.OpAct+`"` {
		x["words"], _ = json.Marshal(words)
		if len(named) > 0 {
			x["variables"], _ = json.Marshal(named.exportForm(defaults))
		}
		if conds := replayIf(named, a.Variables, env); recorded && len(conds) > 0 {
			x["replayIf"], _ = json.Marshal(conds)
		}
	}
	var top map[string]json.RawMessage
	_ = json.Unmarshal(entry, &top)
	for _, k := range []string{"id", "when"} {
		if v, ok := top[k]; ok {
			x[k] = v
		}
	}
	b, err := json.Marshal(x)
	return b, recorded, err == nil
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
