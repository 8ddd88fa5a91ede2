package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// When is an operation's condition, read once just before it runs. When it does not hold the
// operation is skipped and the page is left untouched; any other failure of the look fails
// the operation. Sessions record it and export keeps it, so a file replays a step that a
// person skipped the same way. It takes one of two forms:
//
//   - an assertion of the selected tab (no wait), with its fields and rules: every kind an
//     assert takes, a value that is a string or {"regex", "flags"?} where the kind takes one
//     (none for visible, hidden, …), and name for attribute: {"kind": "visible", "target":
//     {"text": "Accept cookies"}} skips the dismissal when there is no banner;
//   - words, "the cookie banner is shown": a judged condition, which the model judges with
//     one read-only extract of the operation's tab (judge below).
type When struct {
	Kind   string                `json:"kind" required:"true"`
	Value  *transport.ValueMatch `json:"value,omitempty"`
	Name   string                `json:"name,omitempty"`
	Not    bool                  `json:"not,omitempty"`
	Target *transport.Target     `json:"target,omitempty"`
	Cell   *transport.Cell       `json:"cell,omitempty"`
	// Words make the condition a judged one, written as a JSON string (no other field);
	// inWords says it was given so, "" included (which validation refuses).
	Words   string `json:"-"`
	inWords bool
}

// whenFields is When's object form, without the methods that read and write the string one.
type whenFields When

// UnmarshalStrictJSON accepts a string (words: a judged condition) or the assertion object.
func (w *When) UnmarshalStrictJSON(raw []byte, path string) error {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := strictjson.DecodeAt(raw, &s, path); err != nil {
			return err
		}
		*w = When{Words: s, inWords: true}
		return nil
	}
	var f whenFields
	if err := strictjson.DecodeAt(raw, &f, path); err != nil {
		return err
	}
	*w = When(f)
	return nil
}

// UnmarshalJSON mirrors UnmarshalStrictJSON for bytes already checked.
func (w *When) UnmarshalJSON(raw []byte) error { return w.UnmarshalStrictJSON(raw, "") }

// MarshalJSON writes the form the condition was given in.
func (w When) MarshalJSON() ([]byte, error) {
	if w.Judged() {
		return json.Marshal(w.Words)
	}
	return json.Marshal(whenFields(w))
}

// Judged reports a condition in words, which needs a model.
func (w *When) Judged() bool { return w != nil && (w.Words != "" || w.inWords) }

// assertion is the read-only check the condition runs.
func (w *When) assertion() transport.Assert {
	a := transport.Assert{Kind: w.Kind, ValueMatch: w.Value, Name: w.Name, Not: w.Not, Target: w.Target, Cell: w.Cell, Wait: transport.WaitNone}
	a.Normalize()
	return a
}

// checkWhen validates a condition: words by their length, an assertion like the assertion it
// becomes (url values resolve like assert's).
func checkWhen(w *When, path string, base *url.URL) error {
	if w.Judged() {
		if n := utf8.RuneCountInString(w.Words); strings.TrimSpace(w.Words) == "" || n > budgets.JudgedWhenChars {
			return fail(path, fmt.Sprintf("expected 1–%d characters saying what must hold (a condition the model judges), or an assertion {\"kind\", …}", budgets.JudgedWhenChars))
		}
		return nil
	}
	a := w.assertion()
	fr := &fileRequest{op: &a}
	if err := resolveAssert(fr, base, path+".value"); err != nil {
		return err
	}
	w.Value = a.ValueMatch // a url resolved against the base
	if err := transport.Validate(&a); err != nil {
		oe := transport.AsOperationError(transport.OpAssert, err)
		return fail(strings.TrimSuffix(path+"."+strings.TrimPrefix(oe.Path, "request."), "."), oe.Message)
	}
	return nil
}

// holds reads the condition once: false with a nil error when it does not hold. An
// assertion reads the selected tab; words are judged on tab (the operation's own, "" for the
// selected one), and turns are the judging extract's receipts (a failed one's are on its
// error).
func (w *When) holds(ctx context.Context, c transport.Caller, tab string) (ok bool, turns []transport.TurnReceipt, err error) {
	if w.Judged() {
		return w.judge(ctx, c, tab)
	}
	_, err = transport.Dispatch(ctx, c, w.assertion())
	var oe *transport.OperationError
	if errors.As(err, &oe) && oe.Code == transport.CodeAssertionFailed {
		return false, nil, nil
	}
	return err == nil, nil, err
}

// judge asks the model whether the words hold on tab: one extract (read-only: nothing
// reaches the page) whose schema's one property, holds, carries the words in its
// description, which the model is shown with the extract tool's parameters. The condition
// holds only when the model answers true; the extract's own check has then proved that the
// answer cites an element (a ref or line id) of the outline the model was shown. null or
// false (cited) does not hold. Any failure of the extract — no model, the model's failure,
// an answer the runtime refuses (true with no citation, or one naming nothing shown) — fails
// the operation, its message naming the words: an unproven answer is never a skip.
func (w *When) judge(ctx context.Context, c transport.Caller, tab string) (bool, []transport.TurnReceipt, error) {
	res, err := transport.Dispatch(ctx, c, transport.Extract{Tab: tab, Schema: JudgedSchema(w.Words)})
	if err != nil {
		oe := *transport.AsOperationError(transport.OpExtract, err)
		if oe.Code == transport.CodeModelRequired {
			oe.Message = fmt.Sprintf("when %s is judged by a model, and none is configured (a \"model\" in the scenario or run config, or --model; docs/models.md)", w.quoted())
		} else {
			oe.Message = fmt.Sprintf("when %s could not be judged: %s", w.quoted(), oe.Message)
		}
		return false, nil, transport.KeepEvidence(&oe, err)
	}
	var d struct {
		Holds *bool `json:"holds"`
	}
	if err := json.Unmarshal(res.Data, &d); err != nil {
		return false, res.Turns, transport.NewError(transport.OpExtract, transport.PhaseVerify, transport.CodeInternal, transport.RetryNever, transport.NotAttempted,
			"when %s: the extract's data is not the judged schema's", w.quoted())
	}
	return d.Holds != nil && *d.Holds, res.Turns, nil
}

// quoted is the words as a message quotes them.
func (w *When) quoted() string { return strconv.Quote(clipWords(w.Words)) }

// JudgedSchema is the extract schema that judges words: {"holds": true | false | null}, the
// words in the property's description.
func JudgedSchema(words string) transport.JSONValue {
	s, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"holds": map[string]any{
				"type":        []string{"boolean", "null"},
				"description": "true when this holds on the page, citing the element that shows it; null when it does not or the page does not show it: " + words,
			},
		},
		"required":             []string{"holds"},
		"additionalProperties": false,
	})
	return s
}

// judgedWithoutModel refuses, at load, the first judged condition of a scenario that has no
// model (the run read every place one could come from).
func judgedWithoutModel(ops []Operation) error {
	for i := range ops {
		if w := ops[i].When; w.Judged() {
			return relocate(&ops[i], i, &ValidationError{Path: fmt.Sprintf("operations[%d].when", i), Code: transport.CodeModelRequired,
				Message: fmt.Sprintf("when %s is judged by a model, and none is configured: give a \"model\" in the scenario or run config, or --model (docs/models.md)", w.quoted())})
		}
	}
	return nil
}
