package junit

import (
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// systemOut is the testcase's <system-out>: the lifecycle events, then one line per
// operation, so a CI log shows how far the scenario got without opening report.json.
func systemOut(s *scenario.ScenarioReport) string {
	var b strings.Builder
	for _, e := range s.Events {
		fmt.Fprintf(&b, "+%dms %s %s %s\n", e.AtMs, e.Kind, e.Name, e.Status)
	}
	for i := range s.Operations {
		op := &s.Operations[i]
		fmt.Fprintf(&b, "operations[%d] %s %s %dms\n", op.Index, opName(op), op.Status, op.DurationMs)
	}
	return b.String()
}
