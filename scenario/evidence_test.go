package scenario

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestFailedListsEvidenceOnce: the evidence the runtime keeps beside a failure is listed on
// the operation's report entry, once, and never on its error; a step that renames the failed
// operation keeps it.
func TestFailedListsEvidenceOnce(t *testing.T) {
	oe := transport.NewError(transport.OpAct, transport.PhaseExecute, transport.CodeElementNotFound, transport.RetryNever, transport.NotAttempted, "no such element")
	failure := transport.WithEvidence(oe,
		[]transport.ArtifactMeta{{ID: "a1", Owner: "s", Kind: "screenshot", Path: "x/r/a1.png", Bytes: 1, ContentType: "image/png", SHA256: "cc", LocalOnly: true}},
		[]transport.UnavailablePart{{Part: "console", Code: transport.CodeTimeout, Message: "not in time"}})
	for name, err := range map[string]error{"act": failure, "step": asStep(failure, "")} {
		t.Run(name, func(t *testing.T) {
			var or OperationReport
			or.failed(name, err)
			b, merr := json.Marshal(or)
			if merr != nil {
				t.Fatal(merr)
			}
			got := string(b)
			if strings.Count(got, `"evidence"`) != 1 || strings.Count(got, `"evidenceUnavailable"`) != 1 || strings.Count(got, `x/r/a1.png`) != 1 {
				t.Fatalf("evidence not listed exactly once: %s", got)
			}
			eb, _ := json.Marshal(or.Error)
			if strings.Contains(string(eb), "evidence") || or.Error.Code != transport.CodeElementNotFound || or.Status != StatusFailed {
				t.Fatalf("error %s, status %s", eb, or.Status)
			}
		})
	}
	var or OperationReport
	or.failed(transport.OpAct, oe)
	if b, _ := json.Marshal(or); strings.Contains(string(b), "evidence") {
		t.Fatalf("evidence appeared from nowhere: %s", b)
	}
}
