package reportview

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Text writes a short terminal summary of rep: the run's status and counts, then for each
// scenario that did not pass, the failing operation, its error and where its evidence is,
// and the last lines of its hook and server logs. Evidence and log paths are joined to
// artifactsDir (the report's DIR/artifacts as the caller reached it), so they open from
// where the command ran.
func Text(w io.Writer, rep *scenario.Report, artifactsDir string) {
	c := rep.Count()
	fmt.Fprintf(w, "run %s: %s — %d passed", terminalSafe(rep.RunID), terminalSafe(rep.Status), c.Passed)
	if c.Flaky > 0 {
		fmt.Fprintf(w, ", %d flaky", c.Flaky)
	}
	fmt.Fprintf(w, ", %d failed, %d error", c.Failed, c.Error)
	if c.Skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", c.Skipped)
	}
	fmt.Fprintf(w, " in %s\n", formatMs(rep.DurationMs))
	for _, s := range rep.Scenarios {
		if s.Status == scenario.StatusPassed || s.Status == scenario.StatusSkipped {
			continue
		}
		label := map[string]string{scenario.StatusFailed: "FAIL", scenario.StatusError: "ERROR", scenario.StatusInterrupted: "INTERRUPTED",
			scenario.StatusFlaky: "FLAKY"}[s.Status]
		if label == "" {
			label = terminalSafe(s.Status)
		}
		fmt.Fprintf(w, "%-5s %s (%s)\n", label, terminalSafe(s.Title()), terminalSafe(s.File))
		if s.Description != "" {
			fmt.Fprintf(w, "      %s\n", terminalSafe(s.Description))
		}
		if m := s.Model; m != nil {
			fmt.Fprintf(w, "      model %s:%s\n", terminalSafe(m.Provider), terminalSafe(m.Model))
		}
		if len(s.Attempts) == 0 {
			failures(w, "      ", s.Operations, s.Error, artifactsDir)
			traceLine(w, "      ", s.Trace, artifactsDir)
			if ShowsLogs(s.Status) {
				WriteLogTails(w, "      ", artifactsDir, s.Diagnostics)
			}
			continue
		}
		// A retried scenario: each attempt's failure, the last attempt's included.
		for _, a := range s.Attempts {
			fmt.Fprintf(w, "      attempt %d: %s\n", a.Attempt, terminalSafe(a.Status))
			var ops []scenario.OperationReport
			if a.Operation != nil {
				ops = []scenario.OperationReport{*a.Operation}
			}
			failures(w, "        ", ops, a.Error, artifactsDir)
			traceLine(w, "        ", a.Trace, artifactsDir)
		}
		if ShowsLogs(s.Status) {
			WriteLogTails(w, "      ", artifactsDir, s.Diagnostics)
		}
	}
}

// failures writes the failed operations with their evidence, then the scenario error.
func failures(w io.Writer, indent string, ops []scenario.OperationReport, serr *transport.OperationError, artifactsDir string) {
	for _, op := range ops {
		if op.Error == nil && op.Status != scenario.StatusFailed {
			continue
		}
		fmt.Fprintf(w, "%soperations[%d] %s", indent, op.Index, terminalSafe(op.Name()))
		if op.Error != nil {
			fmt.Fprintf(w, ": %s: %s", terminalSafe(string(op.Error.Code)), terminalSafe(op.Error.Message))
		}
		fmt.Fprintln(w)
		if f := scenario.FailureOf(&op); f != nil {
			for _, line := range f.Lines(false) {
				fmt.Fprintf(w, "%s  %s\n", indent, terminalSafe(line))
			}
		} else if exp := op.Expected(); exp != "" {
			fmt.Fprintf(w, "%s  Expected: %s\n", indent, terminalSafe(exp))
		}
		if turns := op.TurnSummary(); turns != "" {
			fmt.Fprintf(w, "%s  %s\n", indent, terminalSafe(turns))
		}
		for _, a := range op.Actions() {
			fmt.Fprintf(w, "%s    %s\n", indent, terminalSafe(scenario.ActionLine(a)))
		}
		for _, m := range op.Evidence {
			fmt.Fprintf(w, "%s  evidence %s: %s\n", indent, terminalSafe(m.Kind), terminalSafe(filepath.Join(artifactsDir, filepath.FromSlash(m.Path))))
		}
		WriteNetworkLines(w, indent+"  ", artifactsDir, op.Evidence)
		for _, u := range op.EvidenceUnavailable {
			fmt.Fprintf(w, "%s  %s not kept: %s\n", indent, terminalSafe(u.Part), terminalSafe(string(u.Code)))
		}
	}
	if serr != nil {
		fmt.Fprintf(w, "%s%s: %s\n", indent, terminalSafe(string(serr.Code)), terminalSafe(serr.Message))
	}
}

// WriteLogTails writes the last TextLogLines lines of each hook and server log in diags
// (read from artifactsDir and verified), under a line naming the source and the file.
func WriteLogTails(w io.Writer, indent, artifactsDir string, diags []artifacts.Meta) {
	for _, l := range ReadLogs(artifactsDir, diags) {
		fmt.Fprintf(w, "%s%s output (last lines of %s):\n", indent, terminalSafe(l.Source), terminalSafe(l.Path))
		for _, line := range TailLines(l.Text, TextLogLines) {
			fmt.Fprintf(w, "%s  | %s\n", indent, terminalSafe(line))
		}
	}
}

// traceLine says a kept step trace is there: its steps, how many kept a picture (and how
// many, not captured, an earlier step's picture stands for), and the directory of the first picture (a trace's files share one).
func traceLine(w io.Writer, indent string, steps []scenario.TraceStep, artifactsDir string) {
	if len(steps) == 0 {
		return
	}
	pictures, same, where := 0, 0, ""
	for _, st := range steps {
		if st.SameAs != nil {
			same++
		}
		if st.Screenshot != nil {
			pictures++
			if where == "" && !st.FromEvidence {
				where = filepath.Dir(filepath.Join(artifactsDir, filepath.FromSlash(st.Screenshot.Path)))
			}
		}
	}
	fmt.Fprintf(w, "%strace: %d steps, %d with a picture", indent, len(steps), pictures)
	if same > 0 {
		fmt.Fprintf(w, ", %d shown by an earlier one (read-only)", same)
	}
	if where != "" {
		fmt.Fprintf(w, " (%s; report.html shows them)", terminalSafe(where))
	}
	fmt.Fprintln(w)
}
