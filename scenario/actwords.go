package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// An act with words (docs/scenarios.md "Acts in words"): {"op":"act", "words":…,
// "request":{…}, "variables"?, "replayIf"?}. The request is the recording of what the words
// did when they were last run; it is replayed as a plain act, without a model, while it
// matches. When the recorded target is gone (element_not_found), when replayIf says the
// recording was made for another value, or when there is no recording, the act heals: one
// one-action task with the words, exactly a session's act in words, on the same tab; its
// action is the new recording, which `run --update` writes back into the file.
//
// Only element_not_found heals. element_ambiguous means the recorded target still names
// elements on the page, more than one: picking one by the words would hide a page change
// the author should see, so it fails as any act does.

// ReplayCondition gates a recording's replay on a variable's value: the recording is
// replayed only while the variable's value has Digest (VariableDigest).
type ReplayCondition struct {
	Variable string `json:"variable" required:"true"`
	Digest   string `json:"digest" required:"true"`
}

// Heal reasons.
const (
	HealElementNotFound = "element_not_found" // the recorded target was not found
	HealReplayIf        = "replay_if"         // a replayIf digest did not match
	HealNoRecording     = "no_recording"      // the act had no request
)

// Healed is what an act with words did instead of its recording.
type Healed struct {
	Words string `json:"words"`
	// From is the recorded target as a report names targets (absent: no recording); To the
	// element the heal acted on, by role and exact name.
	From   string `json:"from,omitempty"`
	To     string `json:"to"`
	Reason string `json:"reason"`
	// Recording is the new recording, the request `run --update` writes in place of the
	// old one (absent: the action cannot be replayed without a model — it used a literal
	// variable's value in its target, or mixed a placeholder with other text).
	Recording json.RawMessage `json:"recording,omitempty"`
	// uses are the variables the new recording depends on (a replayIf on them is dropped
	// by --update); at is where the entry is written (its file's operations index, and
	// the file).
	uses []string
	at   int
	file string
}

// Update is where --update writes the healed recording: the file the entry is written in,
// the index of the entry in that file's operations, and the replayIf variables to drop.
func (h *Healed) Update() (file string, index int, drop []string) { return h.file, h.at, h.uses }

// checkWords checks an op's words, variables and replayIf (path is "operations[i]").
func checkWords(op *Operation, path string) error {
	if op.Words == "" {
		switch {
		case op.Variables != nil:
			return fail(path+".variables", `"variables" goes with "words" (an act in words)`)
		case op.ReplayIf != nil:
			return fail(path+".replayIf", `"replayIf" goes with "words" and "request" (an act in words with its recording)`)
		}
		return nil
	}
	if op.Op != transport.OpAct {
		return fail(path+".words", `"words" goes with op "act"; `+quote(clip(op.Op))+" cannot be done in words")
	}
	if n := utf8.RuneCountInString(op.Words); strings.TrimSpace(op.Words) == "" || n > budgets.TaskGoalChars {
		return fail(path+".words", fmt.Sprintf("expected 1–%d characters saying what to do", budgets.TaskGoalChars))
	}
	for _, name := range slices.Sorted(maps.Keys(op.Variables)) {
		if !transport.ValidTaskVariableName(name) {
			return fail(path+".variables", quote(clip(name))+": "+varNameRule)
		}
		if op.Variables[name] == nil {
			return fail(path+".variables."+name, `expected a string or {"env": NAME}`)
		}
	}
	if op.ReplayIf != nil && len(op.Request) == 0 {
		return fail(path+".replayIf", `"replayIf" gates the replay of a recording: it needs "request"`)
	}
	for i, c := range op.ReplayIf {
		p := path + ".replayIf[" + strconv.Itoa(i) + "]"
		if _, ok := op.Variables[c.Variable]; !ok {
			return fail(p+".variable", quote(clip(c.Variable))+" is not one of the act's variables")
		}
		if _, _, err := parseDigest(c.Digest); err != nil {
			return fail(p+".digest", fmt.Sprintf(`expected "sha256:" + %d hex digits of salt + ":" + 64 hex digits`, 2*DigestSaltBytes))
		}
	}
	return nil
}

// ActRecording is the operation entry that replays a task's action without a model:
// {"op":"act","request":{"action","target":{"role","name","exact":true},"text"|"option"|"key"}},
// or {"op":"navigate","request":{"url"}} for a navigate. Typed text that is exactly a
// variable's placeholder is that variable's value source: {"env": NAME} for an {"env"}
// variable, {"var": "name"} for a literal one. ok is false when the action has no
// replayable recording: no action, a text mixing a placeholder with other text, or a literal
// variable's value in its target, option or URL (the recording would hold one value of it).
func ActRecording(a transport.TaskAction, variables map[string]*transport.Text) (entry json.RawMessage, ok bool) {
	text, textVar := any(nil), ""
	if a.Receipt.Action == transport.ActType {
		text = a.Text
		if name, isVar := strings.CutPrefix(a.Text, "%"); isVar && strings.HasSuffix(name, "%") {
			name = strings.TrimSuffix(name, "%")
			if v, declared := variables[name]; declared && v != nil {
				textVar = name
				text = map[string]string{"var": name}
				if env := v.EnvName(); env != "" {
					text = map[string]string{"env": env}
				}
			}
		}
		if textVar == "" {
			if _, used := transport.ExpandPlaceholders(a.Text, func(n string) (string, bool) {
				_, ok := variables[n]
				return "", ok
			}); len(used) > 0 {
				return nil, false // a placeholder inside other text
			}
		}
	}
	for _, v := range a.Variables {
		if v != textVar {
			return nil, false // a value in the target, option or url
		}
	}
	var out map[string]any
	switch {
	case a.URL != "":
		out = map[string]any{"op": transport.OpNavigate, "request": map[string]any{"url": a.URL}}
	case a.Receipt.Action == "" || a.Receipt.Role == "":
		return nil, false
	default:
		req := map[string]any{"action": a.Receipt.Action, "target": map[string]any{"role": a.Receipt.Role, "name": a.Receipt.Name, "exact": true}}
		switch a.Receipt.Action {
		case transport.ActType:
			req["text"] = text
		case transport.ActSelect:
			req["option"] = a.Receipt.Option
		case transport.ActPress:
			req["key"] = a.Receipt.Key
		}
		out = map[string]any{"op": transport.OpAct, "request": req}
	}
	b, err := json.Marshal(out)
	return b, err == nil
}

// opRun is what running one operation needs beyond the operations and their results, and
// what it reports besides its result.
type opRun struct {
	lookup func(string) (string, bool) // the host environment, for replayIf ({"env"} values)
	healed *Healed                     // set when an act with words healed
	// whenTurns are the receipts of the extract that judged a when in words (a failed one's
	// are on the error).
	whenTurns []transport.TurnReceipt
}

// runWords runs an act with words on tab under oc: its recording while it matches, else the
// words as a one-action task.
func (h *opRun) runWords(ctx context.Context, rt transport.Caller, op *Operation, tab string, oc *transport.OperationContext) (transport.Result, error) {
	reason := HealNoRecording
	var recorded error
	if op.req != nil {
		reason = HealReplayIf
		if h.replayHolds(op) {
			res, err := rt.Call(ctx, op.req.bind(tab), oc)
			oe := transport.AsOperationError(op.Op, err)
			if err == nil || oe.Code != transport.CodeElementNotFound || oe.MutationState != transport.NotAttempted {
				return res, err
			}
			reason, recorded = HealElementNotFound, err
		}
	}
	task := &transport.Task{Tab: tab, Goal: op.Words, MaxActions: 1, Variables: op.Variables}
	res, err := rt.Call(ctx, task, oc)
	if errors.Is(err, transport.ErrCode(transport.CodeModelRequired)) {
		return nil, noModelToHeal(op, reason, recorded)
	}
	if err != nil {
		return nil, err
	}
	tr, _ := res.(*transport.TaskResult)
	if tr == nil || len(tr.Actions) == 0 {
		return res, nil
	}
	a := tr.Actions[0]
	healed := &Healed{Words: op.Words, Reason: reason, To: actionTarget(a), at: op.at, uses: a.Variables}
	if op.req != nil {
		if act, ok := op.req.op.(*transport.Act); ok {
			healed.From = targetText(act.Target)
		}
	}
	if entry, ok := ActRecording(a, op.Variables); ok {
		var e struct {
			Op      string          `json:"op"`
			Request json.RawMessage `json:"request"`
		}
		if json.Unmarshal(entry, &e) == nil && e.Op == transport.OpAct {
			healed.Recording = e.Request
		}
	}
	if src := op.written; src != nil && src.text != nil {
		healed.file = src.text.display
	}
	h.healed = healed
	return res, nil
}

// actionTarget is the element a task's action worked on, as a report names targets.
func actionTarget(a transport.TaskAction) string {
	if a.URL != "" {
		return a.URL
	}
	exact := true
	return transport.Target{Role: a.Receipt.Role, Name: &transport.TextMatch{String: a.Receipt.Name}, Exact: &exact}.Describe()
}

// replayHolds says whether every replayIf condition holds for the variable's value now. An
// {"env"} variable that is not set does not hold (the heal then says it is unset).
func (h *opRun) replayHolds(op *Operation) bool {
	lookup := h.lookup
	for _, c := range op.ReplayIf {
		v := op.Variables[c.Variable]
		value := v.Value()
		if env := v.EnvName(); env != "" {
			got, ok := lookupEnv(lookup, env)
			if !ok {
				return false
			}
			value = got
		}
		if ok, err := DigestMatches(c.Digest, value); err != nil || !ok {
			return false
		}
	}
	return true
}

// lookupEnv reads name with lookup (nil: the process environment).
func lookupEnv(lookup func(string) (string, bool), name string) (string, bool) {
	if lookup == nil {
		return os.LookupEnv(name)
	}
	return lookup(name)
}

// noModelToHeal is an act with words that needed a model and had none: the recording's
// own failure, its message naming the words, or model_required naming them.
func noModelToHeal(op *Operation, reason string, recorded error) error {
	words := strconv.Quote(clipWords(op.Words))
	if recorded != nil {
		oe := *transport.AsOperationError(op.Op, recorded)
		oe.Message += " (act " + words + ": the recording did not match and no model is configured to heal it)"
		return transport.KeepEvidence(&oe, recorded)
	}
	why := "it has no recording"
	if reason == HealReplayIf {
		why = "its recording was made for another value of a variable (replayIf)"
	}
	return transport.NewError(op.Op, transport.PhaseValidate, transport.CodeModelRequired, transport.RetryNever, transport.NotAttempted,
		"act %s runs by its words because %s, and no model is configured (a \"model\" in the scenario or run config; docs/models.md)", words, why)
}

// clipWords bounds words quoted in a message.
func clipWords(s string) string {
	if utf8.RuneCountInString(s) <= 120 {
		return s
	}
	r := []rune(s)
	return string(r[:120]) + "…"
}

// HealedText is how reports show a heal: `healed: button "Sign in" → button "Log in"
// (element_not_found)`; "" when the operation did not heal.
func (o OperationReport) HealedText() string {
	h := o.Healed
	if h == nil {
		return ""
	}
	from := "act " + strconv.Quote(clipWords(h.Words))
	if h.From != "" {
		from = h.From
	}
	text := "healed: " + from + " → " + h.To + " (" + h.Reason + ")"
	if h.Recording == nil {
		text += "; the action cannot be recorded for replay, so the act runs by its words each time"
	}
	return text
}

// HealedCount is how many operations of the report's scenarios healed.
func (r *Report) HealedCount() int {
	n := 0
	for _, s := range r.Scenarios {
		for _, o := range s.Operations {
			if o.Healed != nil {
				n++
			}
		}
	}
	return n
}
