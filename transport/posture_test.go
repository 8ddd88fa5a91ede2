package transport

import "testing"

// TestPostureOf: every refusal of the origin policy is posture egress_denied, before dispatch
// (origin_denied) as in the browser (egress_denied); handoff is handoff_required; any other
// failure is failed, and no error is ok.
func TestPostureOf(t *testing.T) {
	for code, want := range map[Code]Posture{
		CodeEgressDenied:    PostureEgressDenied,
		CodeOriginDenied:    PostureEgressDenied,
		CodeHandoffRequired: PostureHandoffRequired,
		CodeInvalidRequest:  PostureFailed,
		CodeTimeout:         PostureFailed,
	} {
		err := NewError(OpNavigate, PhasePolicy, code, RetryNever, NotAttempted, "x")
		if got := PostureOf(err); got != want {
			t.Errorf("%s: posture %s, want %s", code, got, want)
		}
	}
	if got := PostureOf(nil); got != PostureOK {
		t.Errorf("no error: posture %s, want ok", got)
	}
}
