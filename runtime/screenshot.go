package runtime

import (
	"encoding/base64"
	"errors"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
)

// withSessionRedaction is a capture's redaction rules: the session's always apply, and a
// call can only add to them. A session without an artifact store refuses captures.
func (r *Runtime) withSessionRedaction(op string, rules []transport.RedactionRule) ([]transport.RedactionRule, error) {
	if r.evidence == nil {
		return nil, transport.Invalid(op, "request", "this session has no artifact store: evidence has nowhere to go")
	}
	all := append(append([]transport.RedactionRule{}, r.evidence.Redaction...), rules...)
	return all, transport.ValidateRedaction(op, "request.redaction", all)
}

// commitScreenshot writes a screenshot operation's PNG to the store and answers with its
// metadata in place of the bytes. The worker sends only a proven screenshot; one that is
// malformed or cannot be kept fails the operation (the page was not touched).
func (r *Runtime) commitScreenshot(res *transport.ScreenshotResult) (transport.Result, error) {
	fail := func(code transport.Code, msg string) error {
		return transport.NewError(transport.OpScreenshot, transport.PhaseEvidence, code, transport.RetryNever, transport.NotAttempted, "%s", msg)
	}
	p := res.Payload
	if p == nil || res.Redaction == nil || !res.Redaction.Proven {
		return nil, fail(transport.CodeProtocolError, "the worker sent no proven screenshot")
	}
	data, err := base64.StdEncoding.DecodeString(p.DataBase64)
	if err != nil || p.Kind != transport.PartScreenshot || p.Encoding != "base64" || len(data) != p.ByteLength {
		return nil, fail(transport.CodeProtocolError, "the worker sent a malformed payload")
	}
	meta, err := r.evidence.Store.Put(r.evidence.RunID, r.evidence.Owner, p.Kind, data, false)
	switch {
	case errors.Is(err, artifacts.ErrTooLarge):
		return nil, fail(transport.CodeArtifactTooLarge, "the screenshot is over the size limit: not kept")
	case err != nil:
		return nil, fail(storeFailureCode(err), "the screenshot could not be written to the artifact store: "+artifacts.Cause(err))
	}
	out := *res
	out.Payload, out.Artifact = nil, &meta
	return &out, nil
}
