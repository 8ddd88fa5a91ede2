package worker

import (
	"context"
	"errors"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handlesTab((*Worker).takeScreenshot)

// takeScreenshot is the screenshot operation: the same redacted capture as captureEvidence's
// screenshot part, but a redaction that cannot be proven fails the operation. The PNG goes
// back as a payload; the runtime commits it.
func (w *Worker) takeScreenshot(ctx context.Context, t *tab, r *transport.Screenshot, _ policy.Policy) (transport.Result, error) {
	ctx, cancel, budget, err := captureBudget(ctx, transport.OpScreenshot, r.BudgetMs)
	if err != nil {
		return nil, err
	}
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
	return &transport.ScreenshotResult{Tab: string(t.id), Committed: transport.Committed{Payload: &payload}, Redaction: proof}, nil
}
