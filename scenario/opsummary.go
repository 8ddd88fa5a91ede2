package scenario

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// summaryChars bounds each of an operation's target and value in the report: enough for a
// URL or a sentence, never a page of typed text.
const summaryChars = 200

// requestFields are the request fields an operation summary shows, read from the request's
// JSON form so that every op (and a field a later op adds under one of these names, such as
// an assert's target) is summarised the same way.
type requestFields struct {
	Target *transport.Target `json:"target"`
	URL    string            `json:"url"`
	Text   *transport.Text   `json:"text"`
	Option string            `json:"option"`
	Key    string            `json:"key"`
	Files  []string          `json:"files"`
	Kind   string            `json:"kind"`
	Value  *string           `json:"value"`
	Not    bool              `json:"not"`
}

// newOperationReport is an operation's report before it runs (skipped until it does), with
// what it targets and the value it uses, as report.json and report.html show them.
func newOperationReport(i int, op *Operation) OperationReport {
	or := OperationReport{Index: i, ID: op.ID, Op: op.Op, Status: StatusSkipped, Location: op.written.location(), Soft: op.Soft}
	or.Target, or.Value = summarise(op)
	return or
}

// summarise returns an operation's target (the element as role+name or ref, a navigate's
// URL) and value (typed text, option, key, files; an assertion's kind and expected value).
// A {"env"} text is shown as secrets.Mask and its variable name, never resolved.
func summarise(op *Operation) (target, value string) {
	var f requestFields
	if op.step != nil {
		st := op.step
		f = requestFields{Target: st.Target, Text: st.Text, Option: st.Option, Key: st.Key}
		target = strconv.Quote(st.Instruction)
		if st.Target != nil {
			target = targetText(*st.Target)
		}
		parts := []string{st.Action}
		if v := actValue(f); v != "" {
			parts = append(parts, v)
		}
		parts = append(parts, "then "+st.Postcondition.Kind+" "+strconv.Quote(st.Postcondition.Value))
		return clipSummary(target), clipSummary(strings.Join(parts, " "))
	}
	if op.req == nil {
		if op.Words != "" { // an act by its words alone: the words are what it acts on
			return clipSummary(strconv.Quote(op.Words)), "one action"
		}
		return "", ""
	}
	if t, ok := op.req.op.(*transport.Task); ok { // the goal, then what must hold
		value = "one action"
		if p := t.Postcondition; p != nil {
			value = "then " + p.Kind + " " + strconv.Quote(p.Value)
		}
		return clipSummary(strconv.Quote(t.Goal)), clipSummary(value)
	}
	raw, err := json.Marshal(op.req.op)
	if err != nil || json.Unmarshal(raw, &f) != nil {
		return "", ""
	}
	switch {
	case f.Target != nil:
		target = targetText(*f.Target)
	case f.URL != "":
		target = f.URL
	}
	value = actValue(f)
	if f.Kind != "" && f.Value != nil {
		value = f.Kind + " " + strconv.Quote(*f.Value)
		if f.Not {
			value = "not " + value
		}
	}
	return clipSummary(target), clipSummary(value)
}

// actValue is what an act puts into its element: typed text, an option, a key or files.
func actValue(f requestFields) string {
	switch {
	case f.Text != nil && f.Text.EnvName() != "":
		return secrets.Mask + " (env " + f.Text.EnvName() + ")"
	case f.Text != nil:
		return strconv.Quote(f.Text.Value())
	case f.Option != "":
		return "option " + strconv.Quote(f.Option)
	case f.Key != "":
		return "key " + strconv.Quote(f.Key)
	case len(f.Files) > 0:
		return "files " + strings.Join(f.Files, ", ")
	}
	return ""
}

// targetText is the target as a summary shows it (transport.Target.Describe).
func targetText(t transport.Target) string { return t.Describe() }

func clipSummary(s string) string { return textclip.ClipChars(s, summaryChars) }

// Expected is what a failed assertion expected, its kind and value ("" for other
// operations): reports show it beside the error message, which says what was found.
func (o OperationReport) Expected() string {
	if o.Op != transport.OpAssert || o.Status != StatusFailed {
		return ""
	}
	return o.Value
}
