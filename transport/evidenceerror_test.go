package transport

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// evidenceHandler fails every read with failure evidence beside the error, as the runtime
// does, and every assert without any.
type evidenceHandler struct{}

func (evidenceHandler) Handle(_ context.Context, op Operation, _ *OperationContext) (Result, error) {
	oe := NewError(op.OpName(), PhaseVerify, CodeAssertionFailed, RetrySafe, NotAttempted, "text did not appear")
	if op.OpName() != OpRead {
		return nil, oe
	}
	oe.Blocked = []Blocked{{Kind: "subresource", Origin: "http://x.test"}}
	oe.Dialogs = []Dialog{{Type: "alert", Message: "hi", Action: "dismissed"}}
	return nil, WithEvidence(oe,
		[]ArtifactMeta{{ID: "a1", Owner: "serve", Kind: "console", Path: "s/r/a1.json", Bytes: 2, ContentType: "application/json", SHA256: "ab", LocalOnly: true}},
		[]UnavailablePart{{Part: "screenshot", Code: CodeRedactionNotProven, Message: "not proven"}})
}

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

// TestEvidencedErrorIsItsOperationError: everything that reads a failure sees the
// OperationError through the wrapper, and the evidence survives a rewrite only through
// KeepEvidence.
func TestEvidencedErrorIsItsOperationError(t *testing.T) {
	oe := NewError(OpAct, PhaseExecute, CodeEgressDenied, RetryNever, NotAttempted, "refused")
	unavailable := []UnavailablePart{{Part: "evidence", Code: CodeTimeout, Message: "failure evidence could not be captured"}}
	err := WithEvidence(oe, nil, unavailable)
	var got *OperationError
	if !errors.As(err, &got) || got != oe || AsOperationError("", err) != oe {
		t.Fatalf("errors.As / AsOperationError do not reach the OperationError: %v", err)
	}
	if !errors.Is(err, ErrCode(CodeEgressDenied)) || PostureOf(err) != PostureEgressDenied || err.Error() != oe.Error() {
		t.Fatalf("code, posture or message differ through the wrapper: %v", err)
	}
	if _, u := EvidenceOf(err); len(u) != 1 || u[0] != unavailable[0] {
		t.Fatalf("EvidenceOf = %+v", u)
	}
	renamed := *oe
	renamed.Operation = "step"
	if _, u := EvidenceOf(KeepEvidence(&renamed, err)); len(u) != 1 {
		t.Fatal("KeepEvidence dropped the evidence")
	}
	if e, u := EvidenceOf(oe); e != nil || u != nil {
		t.Fatal("a plain error has evidence")
	}
	if WithEvidence(oe, nil, nil) != error(oe) {
		t.Fatal("WithEvidence wrapped an error with no evidence")
	}
	if strings.Contains(err.Error(), "evidence") {
		t.Fatalf("evidence leaked into the message: %s", err)
	}
}
