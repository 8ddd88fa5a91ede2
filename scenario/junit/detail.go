package junit

import (
	"fmt"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// detail is the text body of <failure>/<error>: for each failing operation (every soft
// assertion that failed too) where and how it failed, with expected/received, the call log
// and the code frame (scenario.Failure), what the origin policy blocked, which dialogs were answered and where its evidence
// is, then the scenario-level error. Evidence paths are written as "artifacts/<path>",
// relative to the results directory that holds report.json (and, normally, this file), so a
// CI user can find them in the uploaded artifact. Results (operation payloads) are never
// written.
func detail(s *scenario.ScenarioReport) string {
	var b strings.Builder
	for i := range s.Operations {
		op := &s.Operations[i]
		if op.Error == nil && op.Status != scenario.StatusFailed {
			continue
		}
		fmt.Fprintf(&b, "operations[%d] %s: %s\n", op.Index, op.Name(), op.Status)
		if op.Target != "" {
			fmt.Fprintf(&b, "  target: %s\n", op.Target)
		}
		if op.Error != nil {
			writeError(&b, op.Error)
			// Expected/received, the call log, where the operation is written and the
			// lines around it (the error line above said the message).
			for _, line := range scenario.FailureOf(op).Lines(false) {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		} else if exp := op.Expected(); exp != "" {
			fmt.Fprintf(&b, "  Expected: %s\n", exp)
		}
		blocked, dialogs := op.Blocked, op.Dialogs
		// The runner copies these from the error to the operation; a report from elsewhere
		// may have left them on the error only. Evidence is only ever on the operation.
		if op.Error != nil {
			if len(blocked) == 0 {
				blocked = op.Error.Blocked
			}
			if len(dialogs) == 0 {
				dialogs = op.Error.Dialogs
			}
		}
		for _, bl := range blocked {
			fmt.Fprintf(&b, "  blocked: %s %s\n", bl.Kind, bl.Origin)
		}
		for _, d := range dialogs {
			fmt.Fprintf(&b, "  dialog: %s %s: %s\n", d.Type, d.Action, d.Message)
		}
		for _, m := range op.Evidence {
			fmt.Fprintf(&b, "  evidence: %s artifacts/%s\n", m.Kind, m.Path)
		}
		for _, u := range op.EvidenceUnavailable {
			fmt.Fprintf(&b, "  evidence unavailable: %s: %s", u.Part, u.Code)
			if u.Message != "" {
				fmt.Fprintf(&b, ": %s", u.Message)
			}
			b.WriteByte('\n')
		}
	}
	if s.Error != nil {
		b.WriteString("scenario:\n")
		writeError(&b, s.Error)
		for _, bl := range s.Error.Blocked {
			fmt.Fprintf(&b, "  blocked: %s %s\n", bl.Kind, bl.Origin)
		}
	}
	return b.String()
}

// writeError lists the fields a reader needs to decide what to do next: the retry and
// mutation state say whether a rerun is safe.
func writeError(b *strings.Builder, e *transport.OperationError) {
	fmt.Fprintf(b, "  error: %s\n", headline(e))
	if e.Operation != "" {
		fmt.Fprintf(b, "  operation: %s\n", e.Operation)
	}
	for _, f := range [][2]string{
		{"phase", string(e.Phase)},
		{"retry", string(e.Retry)},
		{"mutationState", string(e.MutationState)},
		{"path", e.Path},
	} {
		if f[1] != "" {
			fmt.Fprintf(b, "  %s: %s\n", f[0], f[1])
		}
	}
}
