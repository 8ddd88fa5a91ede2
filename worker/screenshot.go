package worker

import (
	"context"
	"errors"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = handlesTab((*Worker).takeScreenshot)

// takeScreenshot is the screenshot operation: the same redacted capture as captureEvidence's
// screenshot part, but a redaction that cannot be proven fails the operation. The PNG goes
// back as a payload; the runtime commits it.
func (w *Worker) takeScreenshot(ctx context.Context, t *tab, r *transport.Screenshot, _ policy.Policy) (transport.Result, error) {
	budget, err := budgets.Screenshot().ResolveMs(int64(r.BudgetMs)) // at least the 2 s floor
	if err != nil {
		return nil, transport.NewError(transport.OpScreenshot, transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted, "%s", err.Error()).WithPath("request.budgetMs")
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	proof, shot, err := w.screenshot(ctx, t, r.Redaction)
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, transport.NewError(transport.OpScreenshot, transport.PhaseExecute, transport.CodeTimeout, transport.RetrySafe, transport.NotAttempted,
				"no screenshot within the screenshot budget (%s)", budget)
		}
		return nil, w.cdpFailure(transport.OpScreenshot, transport.NotAttempted, err)
	}
	if why := notProven(proof); why != "" {
		return nil, transport.NewError(transport.OpScreenshot, transport.PhaseEvidence, transport.CodeRedactionNotProven, transport.RetryNever, transport.NotAttempted, "%s", why)
	}
	payload := pngPayload(shot)
	return &transport.ScreenshotResult{Tab: string(t.id), Payload: &payload, Redaction: proof}, nil
}
