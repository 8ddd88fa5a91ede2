package scenario

import (
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// expectBudget is the budget expectTimeoutMs is checked against: an assert's bounded wait
// (default 5 s as Playwright's expect timeout, ceiling 120 s).
var expectBudget = budgets.Expect

// actionBudget is the budget actionTimeoutMs is checked against: an operation's request
// budget (Operation.TimeoutMs).
var actionBudget = budgets.Request

// checkDefaultTimeouts checks a scenario's or a run config's expectTimeoutMs and
// actionTimeoutMs: positive, and not over their budget's ceiling (budget_exceeded, never
// clamped). 0 is "not given".
func checkDefaultTimeouts(expectMs, actionMs int64) error {
	for _, t := range []struct {
		path string
		ms   int64
		b    budgets.Budget
	}{{"expectTimeoutMs", expectMs, expectBudget()}, {"actionTimeoutMs", actionMs, actionBudget()}} {
		if t.ms < 0 {
			return fail(t.path, "expected a positive number of milliseconds")
		}
		if _, err := t.b.ResolveMs(t.ms); err != nil {
			return overCeiling(t.path, t.ms, t.b)
		}
	}
	return nil
}

// applyDefaultTimeouts gives every checked operation that names no timeout of its own the
// scenario's default: expectMs as an assert's timeoutMs (one that waits: "wait": "none"
// has nothing to bound), actionMs as an act's or a step's request budget. The scenario
// budget still bounds each (the run's context), as it bounds every operation.
func applyDefaultTimeouts(ops []Operation, expectMs, actionMs int64) {
	for i := range ops {
		op := &ops[i]
		switch {
		case (op.Op == transport.OpAct || op.Op == OpStep) && op.TimeoutMs == 0:
			op.TimeoutMs = actionMs
		case op.Op == transport.OpAssert && op.req != nil:
			if a, ok := op.req.op.(*transport.Assert); ok && a.TimeoutMs == 0 && a.Wait != transport.WaitNone {
				a.TimeoutMs = int(expectMs)
			}
		}
	}
}
