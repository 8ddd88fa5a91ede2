package scenario

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// OpStep is the scenario-only operation: find the element an instruction names, act once,
// verify a postcondition.
const OpStep = "step"

// Step is {"instruction","action","target"?,"text"?,"option"?,"key"?,"dialog"?,"promptText"?,
// "postcondition"}.
type Step struct {
	Instruction   string            `json:"instruction" required:"true"`
	Action        string            `json:"action" required:"true"`
	Target        *transport.Target `json:"target,omitempty"`
	Text          *transport.Text   `json:"text,omitempty"`
	Option        string            `json:"option,omitempty"`
	Key           string            `json:"key,omitempty"`
	Dialog        string            `json:"dialog,omitempty"`     // the act's: "accept" accepts the dialogs it opens
	PromptText    string            `json:"promptText,omitempty"` // the act's: what a prompt gets, with accept
	Postcondition Postcondition     `json:"postcondition" required:"true"`
}

// Postcondition is what must hold after the action: text on the page, or the exact url,
// origin or title (a task's too).
type Postcondition = transport.Postcondition

// StepResult reports which element the matcher chose and how the action went.
type StepResult struct {
	transport.Egress
	MatchedBy     string                  `json:"matchedBy"` // target | exact | caseInsensitive | containment
	Receipt       transport.Receipt       `json:"receipt"`
	MutationState transport.MutationState `json:"mutationState"`
	Postcondition Postcondition           `json:"postcondition"`
}

func parseStep(op *Operation, path string, base *url.URL) (*Step, error) {
	if len(op.Request) > 0 {
		return nil, fail(path+".request", `op "step" takes "step", not "request"`)
	}
	if len(op.Step) == 0 {
		return nil, fail(path, `missing required field "step"`)
	}
	var st Step
	if err := strictjson.DecodeAt(op.Step, &st, path+".step"); err != nil {
		return nil, fromStrict(err)
	}
	if st.Instruction = strings.TrimSpace(st.Instruction); st.Instruction == "" || utf8.RuneCountInString(st.Instruction) > budgets.StepInstructionChars {
		return nil, fail(path+".step.instruction", fmt.Sprintf("expected 1–%d characters naming the element", budgets.StepInstructionChars))
	}
	switch st.Postcondition.Kind {
	case "text", "origin", "title", "url":
	default:
		return nil, fail(path+".step.postcondition.kind", `expected "text", "url", "origin" or "title"`)
	}
	if err := resolvePostcondition(&st.Postcondition, base, path+".step.postcondition.value"); err != nil {
		return nil, err
	}
	if st.Postcondition.Value == "" {
		return nil, fail(path+".step.postcondition.value", "expected a non-empty string")
	}
	// The action's own rules are the protocol's: check them on the act it will become.
	act := st.act(transport.Target{Ref: "e1"})
	if st.Target != nil {
		act.Target = *st.Target
	}
	if err := transport.Validate(&act); err != nil {
		oe := transport.AsOperationError(OpStep, err)
		return nil, fail(path+".step"+strings.TrimPrefix(oe.Path, "request"), oe.Message)
	}
	return &st, nil
}

// resolvePostcondition resolves a url postcondition's value against fixture.baseUrl, as
// navigate's url is, so a step's or a task's "/done" means the fixture's /done (and ""
// the base URL itself).
func resolvePostcondition(p *Postcondition, base *url.URL, path string) error {
	if p == nil || p.Kind != transport.PostURL {
		return nil
	}
	u, err := resolveURL(p.Value, base, path)
	if err != nil {
		return err
	}
	p.Value = u
	return nil
}

func (st *Step) act(tg transport.Target) transport.Act {
	return transport.Act{Action: st.Action, Target: tg, Text: st.Text, Option: st.Option, Key: st.Key, Dialog: st.Dialog, PromptText: st.PromptText}
}

// rolesFor lists the outline roles an action can apply to, so the matcher never picks a
// heading for a click or a button for typing.
var rolesFor = map[string][]string{
	transport.ActClick:   {"button", "link", "menuitem", "tab", "checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"},
	transport.ActType:    {"textbox", "searchbox", "spinbutton", "combobox", "password"},
	transport.ActSelect:  {"combobox", "listbox"},
	transport.ActCheck:   {"checkbox", "radio", "switch", "menuitemcheckbox"},
	transport.ActUncheck: {"checkbox", "switch", "menuitemcheckbox"},
	transport.ActPress:   {"textbox", "searchbox", "spinbutton", "combobox", "password", "button", "link"},
	transport.ActUpload:  {"file", "button"},
}

type candidate struct {
	ref, role, name string
}

// matchElement is the deterministic, bounded matcher: among elements with a ref and a role
// that fits the action, an exact name match, else a case-insensitive one, else normalised
// containment (either way round). The first rule that finds anything decides: one element
// is the answer, several are refused as ambiguous, never guessed.
func matchElement(nodes []transport.OutlineNode, instruction, action string) (candidate, string, error) {
	fits := map[string]bool{}
	for _, r := range rolesFor[action] {
		fits[r] = true
	}
	var all []candidate
	var walk func([]transport.OutlineNode)
	walk = func(ns []transport.OutlineNode) {
		for _, n := range ns {
			if n.Ref != "" && fits[n.Role] && !n.Disabled {
				all = append(all, candidate{n.Ref, n.Role, n.Name})
			}
			walk(n.Children)
		}
	}
	walk(nodes)
	rules := []struct {
		name  string
		match func(name string) bool
	}{
		{"exact", func(n string) bool { return strings.TrimSpace(n) == instruction }},
		{"caseInsensitive", func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), instruction) }},
		{"containment", func(n string) bool {
			a, b := normalise(n), normalise(instruction)
			return a != "" && b != "" && (strings.Contains(a, b) || (utf8.RuneCountInString(a) >= 3 && strings.Contains(b, a)))
		}},
	}
	for _, rule := range rules {
		var found []candidate
		for _, c := range all {
			if rule.match(c.name) {
				found = append(found, c)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], rule.name, nil
		default:
			return candidate{}, "", transport.NewError(OpStep, transport.PhaseValidate, transport.CodeElementAmbiguous, transport.RetryNever, transport.NotAttempted,
				"%d elements match %q (%s match); give the step a target", len(found), instruction, rule.name)
		}
	}
	return candidate{}, "", transport.NewError(OpStep, transport.PhaseValidate, transport.CodeElementNotFound, transport.RetryNever, transport.NotAttempted,
		"no element that can %s matches %q", action, instruction)
}

// normalise lower-cases, drops punctuation and folds white space.
func normalise(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}
