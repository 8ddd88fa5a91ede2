package transport

import (
	"errors"
	"strings"
	"testing"
)

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
