package reportview

import (
	"fmt"
	"io"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// Text writes a short terminal summary of rep: the run's status and counts, then for each
// scenario that did not pass, the failing operation, its error and where its evidence is.
// Evidence paths are shown relative to the report's directory (artifacts/…).
func Text(w io.Writer, rep *scenario.Report) {
	c := rep.Count()
	fmt.Fprintf(w, "run %s: %s — %d passed, %d failed, %d error", terminalSafe(rep.RunID), terminalSafe(rep.Status), c.Passed, c.Failed, c.Error)
	if c.Skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", c.Skipped)
	}
	fmt.Fprintf(w, " in %s\n", formatMs(rep.DurationMs))
	for _, s := range rep.Scenarios {
		if s.Status == scenario.StatusPassed || s.Status == scenario.StatusSkipped {
			continue
		}
		label := map[string]string{scenario.StatusFailed: "FAIL", scenario.StatusError: "ERROR", scenario.StatusInterrupted: "INTERRUPTED"}[s.Status]
		if label == "" {
			label = terminalSafe(s.Status)
		}
		fmt.Fprintf(w, "%-5s %s (%s)\n", label, terminalSafe(s.ID), terminalSafe(s.File))
		for _, op := range s.Operations {
			if op.Error == nil && op.Status != scenario.StatusFailed {
				continue
			}
			name := terminalSafe(op.Op)
			if op.ID != "" {
				name = terminalSafe(op.ID) + " (" + name + ")"
			}
			fmt.Fprintf(w, "      operations[%d] %s", op.Index, name)
			if op.Error != nil {
				fmt.Fprintf(w, ": %s: %s", terminalSafe(string(op.Error.Code)), terminalSafe(op.Error.Message))
			}
			fmt.Fprintln(w)
			for _, m := range op.Evidence {
				fmt.Fprintf(w, "        evidence %s: %s\n", terminalSafe(m.Kind), terminalSafe("artifacts/"+m.Path))
			}
			for _, u := range op.EvidenceUnavailable {
				fmt.Fprintf(w, "        %s not kept: %s\n", terminalSafe(u.Part), terminalSafe(string(u.Code)))
			}
		}
		if s.Error != nil {
			fmt.Fprintf(w, "      %s: %s\n", terminalSafe(string(s.Error.Code)), terminalSafe(s.Error.Message))
		}
	}
}
