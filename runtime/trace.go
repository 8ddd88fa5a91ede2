package runtime

import (
	"context"
	"encoding/base64"
	"slices"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A step trace (issue 26, `run --trace`) captures what a tab shows after each operation with
// the same captureEvidence the failure evidence uses, but keeps the parts in memory: whether a
// trace is kept is known only when the scenario ends, and a discarded one must leave nothing
// on disk (not even a file deleted later, which a crash would leave behind).

// TracePart is one kept part of a trace capture, ready to be written: a screenshot whose
// redaction was proven, or diagnostics already scrubbed of the run's secrets.
type TracePart struct {
	Kind      string // screenshot | console | network | outline
	Data      []byte
	Truncated bool
}

// TraceCapture is one step's capture: the parts to keep, the redaction proof, and the parts
// that could not be had (a screenshot whose redaction was not proven among them).
type TraceCapture struct {
	Parts       []TracePart
	Redaction   *transport.RedactionProof
	Unavailable []transport.UnavailablePart
}

// CaptureTrace captures tab ("": the selected one) after operation op for a step trace: captureEvidence with the
// session's redaction, bounded by the failure-evidence budget (a hung page delays a step by
// that much at most). parts limits what is gathered (none: all four; the console and network
// summaries alone cost a worker call, not a frame). Nothing is written; keepTrace's rules
// are those of commitEvidence.
func (r *Runtime) CaptureTrace(ctx context.Context, tab, op string, parts ...string) (*TraceCapture, error) {
	if !slices.Contains(transport.EvidenceOperations(), op) {
		op = transport.OpObserve // a step of a scenario (a model's task) names no operation of the protocol
	}
	// RunID is only a label here: nothing is committed under it.
	req := &transport.CaptureEvidence{Tab: tab, RunID: "trace", Operation: op,
		BudgetMs: int(budgets.FailureEvidence().Default.Milliseconds()), Parts: parts}
	var err error
	if req.Redaction, err = r.withSessionRedaction(req.OpName(), nil); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, budgets.FailureEvidence().Default+budgets.FailureEvidenceMargin)
	defer cancel()
	// A secret added since the last call is handed over first: the capture cuts page text.
	if _, err := r.maskInWorker(ctx, req); err != nil {
		return nil, err
	}
	res, err := r.worker.Call(ctx, req, nil)
	if err != nil {
		return nil, err
	}
	return r.keepTrace(res.(*transport.CaptureEvidenceResult)), nil
}

// keepTrace is commitEvidence without the store: a screenshot only with a proven redaction,
// diagnostics scrubbed of secrets, a malformed payload reported unavailable.
func (r *Runtime) keepTrace(res *transport.CaptureEvidenceResult) *TraceCapture {
	tc := &TraceCapture{Redaction: res.Redaction, Unavailable: append([]transport.UnavailablePart{}, res.Unavailable...)}
	for _, p := range res.Payloads {
		data, err := base64.StdEncoding.DecodeString(p.DataBase64)
		if err != nil || p.Encoding != "base64" || len(data) != p.ByteLength {
			tc.Unavailable = append(tc.Unavailable, transport.UnavailablePart{Part: p.Kind, Code: transport.CodeProtocolError, Message: "the worker sent a malformed payload"})
			continue
		}
		switch p.Kind {
		case transport.PartScreenshot:
			if res.Redaction == nil || !res.Redaction.Proven {
				tc.Unavailable = append(tc.Unavailable, transport.UnavailablePart{Part: p.Kind, Code: transport.CodeRedactionNotProven, Message: "screenshot not kept: the redaction was not proven"})
				continue
			}
		default:
			data = r.secrets.ScrubJSON(data)
		}
		tc.Parts = append(tc.Parts, TracePart{Kind: p.Kind, Data: data, Truncated: p.Truncated})
	}
	return tc
}
