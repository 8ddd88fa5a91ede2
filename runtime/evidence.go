package runtime

import (
	"context"
	"encoding/base64"
	"errors"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var (
	_ = prepares((*Runtime).prepareCapture)
	_ = commits((*Runtime).commitCapture)
)

// prepareCapture gives captureEvidence the session's redaction.
func (r *Runtime) prepareCapture(req *transport.CaptureEvidence, _ policy.Policy) (err error) {
	req.Redaction, err = r.withSessionRedaction(req.OpName(), req.Redaction)
	return err
}

// commitCapture commits a captureEvidence call's payloads under the run it names.
func (r *Runtime) commitCapture(req *transport.CaptureEvidence, res *transport.CaptureEvidenceResult) (transport.Result, error) {
	return r.commitEvidence(req.RunID, res), nil
}

// EvidenceOptions says where a session's evidence goes.
type EvidenceOptions struct {
	Store     *artifacts.Store // the only writer of evidence
	RunID     string
	Owner     string // recorded on every artifact (a scenario id)
	Redaction []transport.RedactionRule
	// OnFailure captures evidence automatically when an operation fails.
	OnFailure bool
}

// withFailureEvidence captures evidence for a failed operation, best effort and within the
// failure-evidence budget. The error comes back unchanged, with the evidence beside it in a
// *transport.EvidencedError (read with transport.EvidenceOf); nothing is retried.
func (r *Runtime) withFailureEvidence(op transport.Operation, err error) error {
	if r.evidence == nil || !r.evidence.OnFailure {
		return err
	}
	if transport.SpecOf(op).NoFailureEvidence {
		return err
	}
	oe := transport.AsOperationError(op.OpName(), err)
	switch oe.Code {
	case transport.CodeWorkerCrashed, transport.CodeCancelled, transport.CodeInvalidRequest, transport.CodeBudgetExceeded:
		return err // no page to show, or nothing reached it
	}
	// The capture gets the failure-evidence budget (2 s, which is also the screenshot floor)
	// in the worker, and its answer at most budgets.FailureEvidenceMargin more: a hung page
	// delays a failure by 2.5 s at most (the Conn's own deadline would allow 2 s more).
	ctx, cancel := context.WithTimeout(context.Background(), budgets.FailureEvidence().Default+budgets.FailureEvidenceMargin)
	defer cancel()
	// The failed operation's tab (already the worker's target id; "": the selected tab).
	req := &transport.CaptureEvidence{Tab: transport.TabOf(op), RunID: r.evidence.RunID, Operation: op.OpName(),
		Redaction: r.evidence.Redaction, BudgetMs: int(budgets.FailureEvidence().Default.Milliseconds())}
	// A secret added since the failed call is handed over first: the capture cuts page text.
	_, cerr := r.maskInWorker(ctx, req)
	var res transport.Result
	if cerr == nil {
		res, cerr = r.worker.Call(ctx, req, nil)
	}
	if cerr != nil {
		return transport.WithEvidence(oe, nil, []transport.UnavailablePart{{Part: "evidence", Code: transport.AsOperationError("", cerr).Code, Message: "failure evidence could not be captured"}})
	}
	ev := r.commitEvidence(r.evidence.RunID, res.(*transport.CaptureEvidenceResult))
	return transport.WithEvidence(oe, ev.Artifacts, ev.Unavailable)
}

// commitEvidence writes a capture's payloads to the store and answers with their metadata.
// A screenshot is kept only with a proven redaction; diagnostics are scrubbed of secrets
// before they are written; a part that cannot be kept is listed as unavailable.
func (r *Runtime) commitEvidence(runID string, res *transport.CaptureEvidenceResult) *transport.CaptureEvidenceResult {
	out := *res
	out.Payloads, out.Artifacts = nil, nil
	out.Unavailable = append([]transport.UnavailablePart{}, res.Unavailable...)
	for _, p := range res.Payloads {
		meta, miss := r.keepPayload(runID, p, res.Redaction)
		if miss != nil {
			out.Unavailable = append(out.Unavailable, *miss)
			continue
		}
		out.Artifacts = append(out.Artifacts, meta)
	}
	return &out
}

// keepPayload writes one payload of the worker's to the store: a screenshot only with a
// proven redaction, diagnostics scrubbed of secrets first (the store cuts them to their
// limit). A payload it cannot keep comes back as the unavailable part saying why.
func (r *Runtime) keepPayload(runID string, p transport.ArtifactPayload, proof *transport.RedactionProof) (transport.ArtifactMeta, *transport.UnavailablePart) {
	miss := func(code transport.Code, msg string) (transport.ArtifactMeta, *transport.UnavailablePart) {
		return transport.ArtifactMeta{}, &transport.UnavailablePart{Part: p.Kind, Code: code, Message: msg}
	}
	data, err := base64.StdEncoding.DecodeString(p.DataBase64)
	if err != nil || p.Encoding != "base64" || len(data) != p.ByteLength {
		return miss(transport.CodeProtocolError, "the worker sent a malformed payload")
	}
	switch p.Kind {
	case transport.PartScreenshot:
		if proof == nil || !proof.Proven {
			return miss(transport.CodeRedactionNotProven, "screenshot not kept: the redaction was not proven")
		}
	case transport.PartDownload:
		// Kept as the server sent it (commitDownload says why).
	default:
		data = r.secrets.ScrubJSON(data)
	}
	meta, err := r.evidence.Store.Put(runID, r.evidence.Owner, p.Kind, data, p.Truncated)
	switch {
	case errors.Is(err, artifacts.ErrTooLarge):
		return miss(transport.CodeArtifactTooLarge, "over the size limit: not kept")
	case err != nil:
		return miss(storeFailureCode(err), "could not be written to the artifact store: "+artifacts.Cause(err))
	}
	return meta, nil
}

// storeFailureCode: an artifact that did not fit (file-size limit, no space or quota left)
// is artifact_too_large like one over its size limit; any other store failure is internal.
func storeFailureCode(err error) transport.Code {
	if artifacts.NoRoom(err) {
		return transport.CodeArtifactTooLarge
	}
	return transport.CodeInternal
}
