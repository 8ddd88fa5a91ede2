package runtime

import (
	"context"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = answers((*Runtime).runExtract)

// runExtract answers extract (docs/models.md "extract"): within the extract's own budget, one
// fresh observation (scoped to req.Scope's subtree when given), rendered, scrubbed and bounded
// as the model is shown it; one model call whose only tool is extract; and the runtime's
// verdict on its answer (the schema, a citation for every value, each cited text on the
// page). It never acts: whatever fails, nothing reached the page.
func (r *Runtime) runExtract(ctx context.Context, req *transport.Extract, octx *transport.OperationContext) (transport.Result, error) {
	if r.model == nil {
		return nil, modelRequired(transport.OpExtract)
	}
	schema, err := transport.CompileExtractSchema(req.Schema)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, transport.TaskBudget(req))
	defer cancel()
	rec := transport.TurnReceipt{Turn: 1}
	page, err := r.observeForExtract(ctx, req, octx, &rec)
	if err != nil {
		return nil, r.extractFailed(&rec, err)
	}
	call, err := extractRequest(req.Schema, page.text)
	if err != nil {
		return nil, r.extractFailed(&rec, err)
	}
	start := time.Now()
	reply, err := r.model.Complete(ctx, call)
	rec.ModelMs = time.Since(start).Milliseconds()
	rec.InputTokens, rec.OutputTokens = reply.InputTokens, reply.OutputTokens
	if err != nil {
		return nil, r.extractFailed(&rec, err)
	}
	if len(reply.Calls) == 1 && reply.Calls[0].Name == transport.ToolExtract {
		rec.Tool = transport.ToolExtract
	}
	data, cites, err := checkExtractReply(reply, schema, page)
	if err != nil {
		return nil, r.extractFailed(&rec, err)
	}
	rec.Outcome = transport.OutcomeOK
	res := &transport.ExtractResult{Egress: page.egress, Tab: page.tab, Data: transport.JSONValue(data), Citations: cites, Turns: []transport.TurnReceipt{rec},
		Warnings: transport.ExtractLinkWarnings(req.Schema)}
	// The data quotes page text: scrubbed like any result (call scrubs the worker's results
	// only, and extract's is the runtime's own).
	return r.scrubResult(req, res)
}

// extractFailed is extract's error for err, whatever failed (the observation, the model, the
// model's answer): the operation extract, nothing attempted on the page, and the turn's
// receipt ending in the code. Evidence kept for a failed observation stays beside it.
func (r *Runtime) extractFailed(rec *transport.TurnReceipt, err error) error {
	oe := *transport.AsOperationError(transport.OpExtract, err)
	oe.Operation, oe.MutationState = transport.OpExtract, transport.NotAttempted
	rec.Outcome = string(oe.Code)
	oe.Turns = []transport.TurnReceipt{*rec}
	return transport.KeepEvidence(transport.AsOperationError(transport.OpExtract, r.scrubError(transport.OpExtract, &oe)), err)
}
