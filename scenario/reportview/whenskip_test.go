package reportview

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// TestHTMLShowsAnOperationsSkipReason: an operation skipped because its when did not hold
// shows why under its status, in a scenario that passed.
func TestHTMLShowsAnOperationsSkipReason(t *testing.T) {
	dir := t.TempDir()
	rep := &scenario.Report{Version: scenario.ReportVersion, RunID: "r", Status: scenario.StatusPassed, Scenarios: []scenario.ScenarioReport{
		{ID: "cookies", File: "cookies.json", Status: scenario.StatusPassed, Operations: []scenario.OperationReport{
			{Index: 0, Op: "navigate", Status: scenario.StatusPassed},
			{Index: 1, Op: "act", Status: scenario.StatusSkipped, SkipReason: "its when condition did not hold <now>"},
		}}}}
	out := render(t, dir, rep)
	if !strings.Contains(out, `skipped</span><div class="skip-reason">its when condition did not hold &lt;now&gt;</div>`) {
		t.Fatalf("the skip reason is not under the operation's status:\n%s", out)
	}
}
