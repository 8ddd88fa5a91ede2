package runtime

import "github.com/fastbrowser/fastbrowser/transport"

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
func (r *Runtime) commitScreenshot(res *transport.ScreenshotResult) (transport.Result, error) {
	if res.Payload == nil || res.Payload.Kind != transport.PartScreenshot {
		return nil, transport.NewError(transport.OpScreenshot, transport.PhaseEvidence, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted, "the worker sent no screenshot")
	}
	meta, miss := r.keepPayload(r.evidence.RunID, *res.Payload, res.Redaction)
	if miss != nil {
		return nil, transport.NewError(transport.OpScreenshot, transport.PhaseEvidence, miss.Code, transport.RetryNever, transport.NotAttempted, "screenshot: %s", miss.Message)
	}
	out := *res
	out.Payload, out.Artifact = nil, &meta
	return &out, nil
}
