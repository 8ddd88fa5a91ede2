package scenario

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestCause: a failed scenario's cause is its failing operation's error (its own error
// only when no operation recorded one); an errored or interrupted scenario's is its own
// error, its failing operation's only when it recorded none.
func TestCause(t *testing.T) {
	opErr := &transport.OperationError{Code: transport.CodeAssertionFailed}
	own := &transport.OperationError{Code: transport.CodeTimeout}
	ops := []OperationReport{{Index: 0, Status: StatusPassed}, {Index: 1, Status: StatusFailed, Error: opErr}, {Index: 2, Status: StatusSkipped}}
	for _, c := range []struct {
		name   string
		s      ScenarioReport
		wantOp int // -1: none
		want   *transport.OperationError
	}{
		{"failed", ScenarioReport{Status: StatusFailed, Operations: ops, Error: own}, 1, opErr},
		{"failed, scenario error only", ScenarioReport{Status: StatusFailed, Error: own}, -1, own},
		{"error", ScenarioReport{Status: StatusError, Operations: ops, Error: own}, -1, own},
		{"interrupted, operation error only", ScenarioReport{Status: StatusInterrupted, Operations: ops}, 1, opErr},
		{"nothing recorded", ScenarioReport{Status: StatusError}, -1, nil},
	} {
		op, e := c.s.Cause()
		gotOp := -1
		if op != nil {
			gotOp = op.Index
		}
		if gotOp != c.wantOp || e != c.want {
			t.Errorf("%s: Cause() = operations[%d], %v; want operations[%d], %v", c.name, gotOp, e, c.wantOp, c.want)
		}
	}
}
