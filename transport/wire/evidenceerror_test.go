package wire

import (
	"context"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// evidenceHandler fails every read with failure evidence beside the error, as the runtime
// does, and every assert without any.
type evidenceHandler struct{}

// TestServeWritesEvidenceInsideTheError pins the wire bytes of an error frame: the evidence
// the runtime keeps beside an error is written inside the error object, once, after the
// error's own fields (blocked and dialogs last among them), exactly as protocol v1 has it; an error without evidence has no
// evidence keys.
func TestServeWritesEvidenceInsideTheError(t *testing.T) {
	p := startPeer(t, evidenceHandler{})
	p.send(t, `{"v":1,"id":"1","op":"read"}`)
	want := `{"v":1,"id":"1","error":{"operation":"read","phase":"verify","code":"assertion_failed","message":"text did not appear","retry":"safe","mutationState":"not_attempted",` +
		`"blocked":[{"kind":"subresource","origin":"http://x.test"}],"dialogs":[{"type":"alert","message":"hi","action":"dismissed"}],` +
		`"evidence":[{"id":"a1","owner":"serve","kind":"console","path":"s/r/a1.json","bytes":2,"contentType":"application/json","sha256":"ab","localOnly":true,"modelForwarded":false}],` +
		`"evidenceUnavailable":[{"part":"screenshot","code":"redaction_not_proven","message":"not proven"}]},"posture":"failed"}`
	if got := p.line(t); got != want {
		t.Fatalf("error frame\n got %s\nwant %s", got, want)
	}
	p.send(t, `{"v":1,"id":"2","op":"assert","request":{"kind":"title","value":"x"}}`)
	want = `{"v":1,"id":"2","error":{"operation":"assert","phase":"verify","code":"assertion_failed","message":"text did not appear","retry":"safe","mutationState":"not_attempted"},"posture":"failed"}`
	if got := p.line(t); got != want {
		t.Fatalf("error frame without evidence\n got %s\nwant %s", got, want)
	}
}
func (evidenceHandler) Handle(_ context.Context, op transport.Operation, _ *transport.OperationContext) (transport.Result, error) {
	oe := transport.NewError(op.OpName(), transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "text did not appear")
	if op.OpName() != transport.OpRead {
		return nil, oe
	}
	oe.Blocked = []transport.Blocked{{Kind: "subresource", Origin: "http://x.test"}}
	oe.Dialogs = []transport.Dialog{{Type: "alert", Message: "hi", Action: "dismissed"}}
	return nil, transport.WithEvidence(oe,
		[]transport.ArtifactMeta{{ID: "a1", Owner: "serve", Kind: "console", Path: "s/r/a1.json", Bytes: 2, ContentType: "application/json", SHA256: "ab", LocalOnly: true}},
		[]transport.UnavailablePart{{Part: "screenshot", Code: transport.CodeRedactionNotProven, Message: "not proven"}})
}
