package runtime

import (
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var (
	_ = prepares((*Runtime).prepareScreenshot)
	_ = commits((*Runtime).commitScreenshot)
)

// prepareScreenshot gives a screenshot the session's redaction.
func (r *Runtime) prepareScreenshot(req *transport.Screenshot, _ policy.Policy) (err error) {
	req.Redaction, err = r.withSessionRedaction(req.OpName(), req.Redaction)
	return err
}

// withSessionRedaction is a capture's redaction rules: the session's always apply, and a
// call can only add to them. A session without an artifact store refuses captures.
func (r *Runtime) withSessionRedaction(op string, rules []transport.RedactionRule) ([]transport.RedactionRule, error) {
	if err := r.needStore(op, "evidence"); err != nil {
		return nil, err
	}
	all := append(append([]transport.RedactionRule{}, r.evidence.Redaction...), rules...)
	return all, transport.ValidateRedaction(op, "request.redaction", all)
}

// needStore refuses an operation that keeps an artifact (what) in a session without an
// artifact store.
func (r *Runtime) needStore(op, what string) error {
	if r.evidence == nil {
		return transport.Invalid(op, "request", "this session has no artifact store: %s has nowhere to go", what)
	}
	return nil
}

// commitScreenshot writes a screenshot operation's PNG to the store and answers with its
// metadata in place of the bytes. The worker sends only a proven screenshot; one that is
// missing, malformed or cannot be kept fails the operation (the page was not touched).
func (r *Runtime) commitScreenshot(_ *transport.Screenshot, res *transport.ScreenshotResult) (transport.Result, error) {
	out := *res
	if err := r.commitPayload(transport.OpScreenshot, transport.PartScreenshot, &out.Committed, res.Redaction, transport.NotAttempted); err != nil {
		return nil, err
	}
	return &out, nil
}

// commitPayload writes the payload of kind a result carries to the store and puts its
// metadata in its place. A payload that is missing, of another kind, malformed or cannot be
// kept fails the operation op (mut: what the operation had done to the page by then).
func (r *Runtime) commitPayload(op, kind string, c *transport.Committed, proof *transport.RedactionProof, mut transport.MutationState) error {
	if c.Payload == nil || c.Payload.Kind != kind {
		return transport.NewError(op, transport.PhaseEvidence, transport.CodeProtocolError, transport.RetryNever, mut, "the worker sent no %s", kind)
	}
	meta, miss := r.keepPayload(r.evidence.RunID, *c.Payload, proof)
	if miss != nil {
		return transport.NewError(op, transport.PhaseEvidence, miss.Code, transport.RetryNever, mut, "%s: %s", kind, miss.Message)
	}
	c.Payload, c.Artifact = nil, &meta
	return nil
}
