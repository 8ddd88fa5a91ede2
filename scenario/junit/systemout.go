package junit

import (
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// systemOut is the testcase's <system-out>: the scenario's description, the lifecycle
// events, then one line per operation, so a CI log shows how far the scenario got without
// opening report.json. The description goes here rather than into a property because the
// system-out is what Jenkins (the test's "Standard Output") and GitLab (the test's "System
// output") show; neither shows testcase properties, which the Ant XSD does not allow anyway.
func systemOut(s *scenario.ScenarioReport) string {
	var b strings.Builder
	if s.Description != "" {
		fmt.Fprintf(&b, "description: %s\n", s.Description)
	}
	if len(s.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(s.Tags, " "))
	}
	if s.SkipReason != "" {
		fmt.Fprintf(&b, "skipped: %s\n", s.SkipReason)
	}
	for _, e := range s.Events {
		fmt.Fprintf(&b, "+%dms %s %s %s\n", e.AtMs, e.Kind, e.Name, e.Status)
	}
	for i := range s.Operations {
		op := &s.Operations[i]
		fmt.Fprintf(&b, "operations[%d] %s %s %dms", op.Index, op.Name(), op.Status, op.DurationMs)
		if op.SkipReason != "" { // reached and skipped: its when did not hold
			fmt.Fprintf(&b, " (%s)", op.SkipReason)
		}
		if h := op.HealedText(); h != "" { // an act in words ran by its words
			fmt.Fprintf(&b, " (%s)", h)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
