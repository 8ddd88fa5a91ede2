package scenario

import (
	"context"
	"errors"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// runStep runs one step on the selected tab: locate (explicit target, else the matcher over
// a fresh outline), act once, verify the postcondition within the verification budget. It
// never retries: a refusal or a failed postcondition ends the step.
func runStep(ctx context.Context, c transport.Caller, st *Step) (transport.Result, error) {
	res := &StepResult{Postcondition: st.Postcondition}
	var tg transport.Target
	if st.Target != nil {
		tg, res.MatchedBy = *st.Target, "target"
	} else {
		ob, err := transport.Dispatch(ctx, c, transport.Observe{MaxNodes: budgets.OutlineNodes.Ceiling})
		if err != nil {
			return nil, asStep(err, "")
		}
		found, rule, err := matchElement(ob.Nodes, st.Instruction, st.Action)
		if err != nil {
			return nil, err
		}
		tg, res.MatchedBy = transport.Target{Ref: found.ref}, rule
	}
	ar, err := transport.Dispatch(ctx, c, st.act(tg))
	if err != nil {
		return nil, asStep(err, "")
	}
	res.Receipt, res.MutationState = ar.Receipt, ar.MutationState
	if _, err := transport.Dispatch(ctx, c, st.Postcondition.assertion()); err != nil {
		if errors.Is(err, transport.ErrCode(transport.CodeAssertionFailed)) {
			what := "text " + quote(st.Postcondition.Value) + " did not appear"
			if st.Postcondition.Kind != "text" {
				what = st.Postcondition.Kind + " did not become " + quote(st.Postcondition.Value)
			}
			return nil, transport.NewError(OpStep, transport.PhaseVerify, transport.CodePostconditionFailed, transport.RetryUnsafe, transport.Unknown,
				"%s within %s after %s on %s %q", what, budgets.ActionVerification.Default, st.Action, ar.Receipt.Ref, ar.Receipt.Name)
		}
		return nil, asStep(err, transport.Unknown)
	}
	res.MutationState = transport.Verified // the postcondition observed the action's effect
	return res, nil
}

// asStep names the step as the failing operation; after the action, whatever failed leaves
// the page's state unknown.
func asStep(err error, mut transport.MutationState) error {
	oe := *transport.AsOperationError(OpStep, err)
	oe.Operation = OpStep
	if mut != "" {
		oe.MutationState, oe.Retry = mut, transport.RetryUnsafe
	}
	return &oe
}
