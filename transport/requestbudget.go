package transport

import (
	"context"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// The request budget (budgets.Request(): default 10 s, ceiling 120 s) bounds one call that has
// no budget of its own. A caller sets it per call: on the wire as the request frame's
// "timeoutMs", in Go on the context. Serve puts a frame's timeoutMs on the handler's
// context; Conn.Call sends the context's on to the worker, which bounds act by it.
// Operations with their own budget (navigate, reload, read, assert, observe, waitPopup,
// captureEvidence) keep that budget: a request budget neither stretches nor cuts it.

type requestBudgetKey struct{}

// WithRequestBudget returns ctx carrying d as the request budget of the calls made with it
// (0: the default). Conn.Call refuses a negative one or one over the ceiling
// (budget_exceeded, path "timeoutMs").
func WithRequestBudget(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, requestBudgetKey{}, d)
}

// RequestBudget is the request budget ctx carries, else the default.
func RequestBudget(ctx context.Context) time.Duration {
	if d, ok := ctx.Value(requestBudgetKey{}).(time.Duration); ok && d > 0 {
		return d
	}
	return budgets.Request().Default
}

// requestBudgetOf is the request budget a caller set on ctx, 0 when none.
func RequestBudgetOf(ctx context.Context) time.Duration {
	d, _ := ctx.Value(requestBudgetKey{}).(time.Duration)
	return d
}

// resolveTimeout checks a per-call request budget against budgets.Request().
func ResolveTimeout(op string, d time.Duration) (time.Duration, error) {
	r, err := budgets.Request().Resolve(d)
	if err != nil {
		return 0, NewError(op, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted,
			"timeoutMs %d is outside 0–%d (the request budget's ceiling)", d.Milliseconds(), budgets.Request().Ceiling.Milliseconds()).WithPath("timeoutMs")
	}
	return r, nil
}

// timeoutMs is d on the wire: whole milliseconds, rounded up so a budget is never cut.
func BudgetMillis(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
