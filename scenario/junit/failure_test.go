package junit

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestFailureBodyShowsWhatWasThere: the <failure> body lists, under each failed operation
// (a soft assertion's too, named so), expected/received with the caret, the call log, the
// location and the code frame.
func TestFailureBodyShowsWhatWasThere(t *testing.T) {
	oe := transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "title did not equal")
	oe.Expected, oe.Received, oe.CallLog = "Dashboard", "Dash & co", []string{`2 × title "Dash & co"`}
	rep := &scenario.Report{Version: 1, RunID: "r", Status: scenario.StatusFailed, Scenarios: []scenario.ScenarioReport{{
		ID: "s", File: "s.json", Status: scenario.StatusFailed,
		Operations: []scenario.OperationReport{{Index: 0, ID: "t", Op: "assert", Soft: true, Status: scenario.StatusFailed, Error: oe,
			Location: &scenario.Location{File: "s.json", Line: 3, Column: 4}, CodeFrame: "> 3 |    {\n    |    ^"}},
		Error: transport.NewError("", transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetryNever, transport.NotAttempted, "1 soft assertion failed: operations[0] (assert): title did not equal"),
	}}}
	var doc struct {
		Failure string `xml:"testsuite>testcase>failure"`
	}
	if err := xml.Unmarshal(render(t, rep), &doc); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"operations[0] t (assert, soft): failed",
		"  error: assertion_failed: title did not equal",
		"  operation: assert", "  phase: verify", "  retry: safe", "  mutationState: not_attempted",
		`  Expected: "Dashboard"`,
		`  Received: "Dash & co"`,
		"                 ^",
		"  Call log:",
		`    - 2 × title "Dash & co"`,
		"  at s.json:3:4",
		"  > 3 |    {",
		"      |    ^",
		"scenario:",
		"  error: assertion_failed: 1 soft assertion failed: operations[0] (assert): title did not equal",
	}, "\n")
	if !strings.Contains(doc.Failure, want) {
		t.Errorf("failure body:\n%s\nwant:\n%s", doc.Failure, want)
	}
}
