package worker

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
)

//go:embed mask.js
var maskFn string

const unmaskFn = `function () { for (const e of document.querySelectorAll('[data-fastbrowser-mask]')) e.remove(); }`

// maxMaskTargets bounds the elements one capture resolves for masking; more than that and
// the redaction is not proven (nothing is guessed).
const maxMaskTargets = 500

// captureEvidence gathers what a tab shows, cheapest and surest first: the console and
// network summaries the tab has kept, the redacted screenshot, then the outline. Each part
// that cannot be had within the deadline is reported unavailable, never faked. It never
// writes a file: parts go back as payloads.
func (w *Worker) captureEvidence(ctx context.Context, r *transport.CaptureEvidence) (transport.Result, error) {
	t, err := w.tabFor(transport.OpCaptureEvidence, r.Tab)
	if err != nil {
		return nil, err
	}
	budget, err := budgets.Screenshot.ResolveMs(int64(r.BudgetMs)) // at least the 2 s floor
	if err != nil {
		return nil, transport.NewError(transport.OpCaptureEvidence, transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted, "%s", err.Error()).WithPath("request.budgetMs")
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
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
	res.Payloads = append(res.Payloads, jsonPayload(transport.PartConsole, cons), jsonPayload(transport.PartNetwork, netw))

	proof, shot, err := w.screenshot(ctx, t, r.Redaction)
	res.Redaction = proof
	switch {
	case err != nil:
		failed(transport.PartScreenshot, err)
	case !proof.Proven:
		miss(transport.PartScreenshot, transport.CodeRedactionNotProven, "screenshot not kept: %d of %d redacted elements would show", proof.Unmasked, proof.Matched)
	default:
		res.Payloads = append(res.Payloads, transport.ArtifactPayload{Kind: transport.PartScreenshot, ContentType: "image/png", Encoding: "base64",
			DataBase64: base64.StdEncoding.EncodeToString(shot), ByteLength: len(shot)})
	}

	if obs, err := w.observe(ctx, &transport.Observe{Tab: r.Tab}); err != nil {
		failed(transport.PartOutline, err)
	} else {
		res.Payloads = append(res.Payloads, jsonPayload(transport.PartOutline, obs))
	}
	return res, nil
}

func jsonPayload(kind string, v any) transport.ArtifactPayload {
	b, _ := json.Marshal(v)
	return transport.ArtifactPayload{Kind: kind, ContentType: "application/json", Encoding: "base64",
		DataBase64: base64.StdEncoding.EncodeToString(b), ByteLength: len(b)}
}

// screenshot masks every element the redaction rules select, measures what still shows,
// and captures the viewport only when nothing does. The masks are removed afterwards.
func (w *Worker) screenshot(ctx context.Context, t *tab, rules []transport.RedactionRule) (*transport.RedactionProof, []byte, error) {
	proof := &transport.RedactionProof{Rules: []string{"password", "secret-field", "secret-text"}}
	// A background tab can stall a capture in headless mode: bring it to the front.
	if err := w.bc.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(t.id)); err != nil {
		return proof, nil, err
	}
	frames, err := w.axFrames(ctx, t)
	if err != nil {
		return proof, nil, err
	}
	targets := map[dom.BackendNodeID]bool{}
	for _, f := range frames {
		for _, b := range f.Passwords {
			targets[b] = true
		}
	}
	t.mu.Lock()
	for b := range t.secretNodes {
		targets[b] = true
	}
	t.mu.Unlock()
	applied := true
	for _, rule := range rules {
		proof.Rules = append(proof.Rules, ruleName(rule))
		for _, el := range outline.Redactable(frames, rule.Role, rule.Name, rule.Label) {
			targets[el.Backend] = true
		}
	}
	if len(targets) > maxMaskTargets {
		proof.Matched, proof.Unmasked = len(targets), len(targets)
		return proof, nil, nil
	}
	world, err := t.isolatedWorld(ctx)
	if err != nil {
		return proof, nil, err
	}
	args := []cdpruntime.CallArgument{{Value: mustJSON(w.typedSecrets())}}
	for b := range targets {
		r, err := t.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b).SetExecutionContextID(world))
		if err != nil || r.Object.ObjectID == nil {
			// Gone from the document: nothing of it can show. Anything else is a rule
			// that could not be applied.
			if err != nil && !strings.Contains(err.Error(), "No node") {
				applied = false
			}
			continue
		}
		args = append(args, cdpruntime.CallArgument{ObjectID: r.Object.ObjectID})
	}
	defer func() {
		// The page is left as it was, even when the capture ran out of time.
		cctx, cancel := context.WithTimeout(context.Background(), budgets.CDPCall.Default)
		defer cancel()
		_, _ = t.c.Runtime.CallFunctionOn(cctx, cdpruntime.NewCallFunctionOnArgs(unmaskFn).SetExecutionContextID(world).SetSilent(true))
	}()
	reply, err := t.c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(maskFn).SetExecutionContextID(world).
		SetArguments(args).SetReturnByValue(true).SetSilent(true))
	if err != nil {
		return proof, nil, err
	}
	if reply.ExceptionDetails != nil {
		return proof, nil, errScript
	}
	var measured struct {
		Matched  int `json:"matched"`
		Unmasked int `json:"unmasked"`
	}
	if err := json.Unmarshal(reply.Result.Value, &measured); err != nil {
		return proof, nil, err
	}
	proof.Matched, proof.Unmasked = measured.Matched, measured.Unmasked
	proof.Masked = measured.Matched - measured.Unmasked
	proof.Proven = applied && measured.Unmasked == 0
	if !proof.Proven {
		return proof, nil, nil
	}
	shot, err := t.c.Page.CaptureScreenshot(ctx, page.NewCaptureScreenshotArgs().SetFormat("png"))
	if err != nil {
		return proof, nil, err
	}
	return proof, shot.Data, nil
}

func ruleName(r transport.RedactionRule) string {
	var parts []string
	for _, f := range []struct{ k, v string }{{"role", r.Role}, {"name", r.Name}, {"label", r.Label}} {
		if f.v != "" {
			parts = append(parts, f.k+"="+f.v)
		}
	}
	return strings.Join(parts, ",")
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// typedSecrets are the secret texts typed in this session, for masking wherever the page
// echoes them. They live in the worker's memory only.
func (w *Worker) typedSecrets() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string{}, w.secrets...)
}
