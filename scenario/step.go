package scenario

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
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
	if !slices.Contains(transport.PostconditionKinds, st.Postcondition.Kind) {
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
		if st.Target.IsZero() {
			return nil, fail(path+".step.target", "expected one of "+strings.Join(transport.LocatorKinds, ", "))
		}
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
