package runtime

import (
	"context"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Seed 001: a snapshot action needs at least the observation floor (2,000 ms) of dispatch,
// settlement and adjacent-observation allowance, "both in the provider schema and
// independently before dispatch". The model sees it as act's allowanceMs (minimum the floor);
// the runtime never trusts the model's arguments and checks it again before dispatch. It is
// not a wait: a quiet page settles as soon as it is ready.

// allowanceProperty is act's allowanceMs in the tool schema the model is offered.
func allowanceProperty() map[string]any {
	return map[string]any{
		"type":        "integer",
		"minimum":     budgets.Observation().Floor.Milliseconds(),
		"maximum":     budgets.Task().Ceiling.Milliseconds(),
		"description": "the milliseconds this action may take to dispatch, settle and be observed after (at least the minimum; not a wait: a quiet page settles sooner)",
	}
}

// actFloor refuses, before anything is dispatched, an action whose allowance is under the
// floor, or that would get less than its allowance (at least the floor) of what is left of
// the task.
func (t *taskRun) actFloor(ctx context.Context, a actArgs) error {
	floor := budgets.Observation().Floor
	want := time.Duration(a.AllowanceMs) * time.Millisecond
	if a.AllowanceMs != 0 && want < floor {
		return refuse(t.mutation, "act's allowanceMs %d is under the %d ms a snapshot action needs", a.AllowanceMs, floor.Milliseconds())
	}
	if want < floor {
		want = floor
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < want {
		return transport.NewError(transport.OpTask, transport.PhaseDispatch, transport.CodeBudgetExceeded, transport.RetryNever, t.mutation,
			"the action, its settlement and the observation after it need %s and the task has %s left", want, time.Until(dl).Round(time.Millisecond))
	}
	return nil
}
