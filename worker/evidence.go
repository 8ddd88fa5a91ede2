package worker

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handlesTab((*Worker).captureEvidence)

// captureEvidence gathers what a tab shows, cheapest and surest first: the console and
// network summaries the tab has kept, the redacted screenshot, then the outline. Each part
// that cannot be had within the deadline is reported unavailable, never faked. It never
// writes a file: parts go back as payloads.
func (w *Worker) captureEvidence(ctx context.Context, t *tab, r *transport.CaptureEvidence, pol policy.Policy) (transport.Result, error) {
	ctx, cancel, budget, err := captureBudget(ctx, transport.OpCaptureEvidence, r.BudgetMs)
	if err != nil {
		return nil, err
	}
	defer cancel()
	res := &transport.CaptureEvidenceResult{Tab: string(t.id)}
	miss := func(part string, code transport.Code, format string, args ...any) {
		res.Unavailable = append(res.Unavailable, transport.UnavailablePart{Part: part, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	failed := func(part string, err error) {
		if ctx.Err() != nil {
			miss(part, transport.CodeTimeout, "not captured within the evidence budget (%s)", budget)
			return
		}
		// The browser's own error text stays in the worker log: messages carry no raw
		// browser or Go error text (docs/protocol.md "Errors").
		w.log.Printf("evidence %s: %v", part, err)
		miss(part, transport.CodeInternal, "could not be captured")
	}

	cons, netw := t.diag.summaries()
	if r.Wants(transport.PartConsole) {
		res.Payloads = append(res.Payloads, jsonPayload(transport.PartConsole, cons))
	}
	if r.Wants(transport.PartNetwork) {
		res.Payloads = append(res.Payloads, jsonPayload(transport.PartNetwork, netw))
	}

	if r.Wants(transport.PartScreenshot) {
		proof, shot, err := w.screenshot(ctx, t, r.Redaction)
		res.Redaction = proof
		switch why := notProven(proof); {
		case err != nil:
			failed(transport.PartScreenshot, err)
		case why != "":
			miss(transport.PartScreenshot, transport.CodeRedactionNotProven, "%s", why)
		default:
			res.Payloads = append(res.Payloads, pngPayload(shot))
		}
	}

	if r.Wants(transport.PartOutline) {
		if obs, err := w.observe(ctx, t, &transport.Observe{Tab: r.Tab}, pol); err != nil {
			failed(transport.PartOutline, err)
		} else {
			res.Payloads = append(res.Payloads, jsonPayload(transport.PartOutline, obs))
		}
	}
	return res, nil
}

// captureBudget bounds a capture by its budgetMs, resolved against the screenshot budget
// (at least its 2 s floor).
func captureBudget(ctx context.Context, op string, budgetMs int) (context.Context, context.CancelFunc, time.Duration, error) {
	budget, err := budgets.Screenshot().ResolveMs(int64(budgetMs))
	if err != nil {
		return nil, nil, 0, transport.NewError(op, transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted, "%s", err.Error()).WithPath("request.budgetMs")
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	return ctx, cancel, budget, nil
}

// notProven says why a screenshot with this proof is not kept ("" when it is).
func notProven(proof *transport.RedactionProof) string {
	switch {
	case proof.Proven:
		return ""
	case proof.FramesUninspected > 0:
		return fmt.Sprintf("screenshot not kept: %d frames on the page could not be inspected for redaction", proof.FramesUninspected)
	case proof.Unmasked == 0:
		return "screenshot not kept: a redaction rule or a frame could not be applied"
	}
	return fmt.Sprintf("screenshot not kept: %d of %d redacted elements would show", proof.Unmasked, proof.Matched)
}

func pngPayload(shot []byte) transport.ArtifactPayload {
	return transport.ArtifactPayload{Kind: transport.PartScreenshot, ContentType: "image/png", Encoding: "base64",
		DataBase64: base64.StdEncoding.EncodeToString(shot), ByteLength: len(shot)}
}

func jsonPayload(kind string, v any) transport.ArtifactPayload {
	b, _ := json.Marshal(v)
	return transport.ArtifactPayload{Kind: kind, ContentType: "application/json", Encoding: "base64",
		DataBase64: base64.StdEncoding.EncodeToString(b), ByteLength: len(b)}
}

// typedSecrets are the secret texts typed in this session, for masking wherever the page
// echoes them. They live in the worker's memory only.
func (w *Worker) typedSecrets() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.secrets...)
}
