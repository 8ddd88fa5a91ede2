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
	// The dialogs its observe, act and assert answered are the step's, kept on its result or
	// its error.
	failed := func(err error) error {
		oe := transport.AsOperationError(OpStep, err)
		oe.Dialogs = append(res.Dialogs, oe.Dialogs...)
		return transport.KeepEvidence(oe, err)
	}
	var tg transport.Target
	if st.Target != nil {
		tg, res.MatchedBy = *st.Target, "target"
	} else {
		ob, err := transport.Dispatch(ctx, c, transport.Observe{MaxNodes: budgets.OutlineNodes().Ceiling})
		if err != nil {
			return nil, failed(asStep(err, ""))
		}
		res.Dialogs = append(res.Dialogs, ob.Dialogs...)
		found, rule, err := transport.MatchElement(ob.Nodes, st.Instruction, st.Action, OpStep)
		if err != nil {
			return nil, failed(err)
		}
		tg, res.MatchedBy = transport.Target{Ref: found.Ref}, rule
	}
	ar, err := transport.Dispatch(ctx, c, st.act(tg))
	if err != nil {
		return nil, failed(asStep(err, ""))
	}
	res.Dialogs = append(res.Dialogs, ar.Dialogs...)
	res.Receipt, res.MutationState = ar.Receipt, ar.MutationState
	as, err := transport.Dispatch(ctx, c, st.Postcondition.Assertion(transport.WaitBounded))
	if err != nil {
		if errors.Is(err, transport.ErrCode(transport.CodeAssertionFailed)) {
			what := "text " + quote(st.Postcondition.Value) + " did not appear"
			if st.Postcondition.Kind != "text" {
				what = st.Postcondition.Kind + " did not become " + quote(st.Postcondition.Value)
			}
			oe := transport.NewError(OpStep, transport.PhaseVerify, transport.CodePostconditionFailed, transport.RetryUnsafe, transport.Unknown,
				"%s within the action-verification budget (%s) after %s on %s %q", what, budgets.ActionVerification().Default, st.Action, ar.Receipt.Ref, ar.Receipt.Name)
			oe.Dialogs = transport.AsOperationError(OpStep, err).Dialogs
			return nil, failed(oe)
		}
		return nil, failed(asStep(err, transport.Unknown))
	}
	res.Dialogs = append(res.Dialogs, as.Dialogs...)
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
	return transport.KeepEvidence(&oe, err)
}
