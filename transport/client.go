package transport

import (
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// DeadlineFor is the transport deadline of one call of op under the default request budget.
func DeadlineFor(op Operation) time.Duration { return deadlineFor(op, budgets.Request.Default) }

// deadlineFor is the transport deadline of one call of op: the operation's own budget plus
// a margin for the round trip, so the worker's budget fires first and says which budget.
// request is the call's request budget, which bounds the calls without a budget of their own.
func deadlineFor(op Operation, request time.Duration) time.Duration {
	const margin = 2 * time.Second
	switch op.OpName() {
	case OpNavigate, OpReload:
		return budgets.Navigation.Default + margin
	case OpRead, OpAssert:
		return budgets.ReadWait.Default + margin
	case OpCaptureEvidence:
		d := budgets.Screenshot.Ceiling // Validate refused anything it would not resolve
		if ce, ok := op.(*CaptureEvidence); ok {
			if r, err := budgets.Screenshot.ResolveMs(int64(ce.BudgetMs)); err == nil {
				d = r
			}
		}
		return d + margin
	case OpObserve, OpWaitPopup:
		// Their own budgets (observation, popup wait) end them in the worker well inside
		// the default request budget, which a per-call one does not change.
		return budgets.Request.Default
	case OpAct:
		// The worker bounds a whole act (locate, checks, input, verification) by the
		// request budget; the margin lets its own timeout answer first.
		return request + margin
	}
	return request
}
