package reportview

import (
	"fmt"
	"io"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// FailedLogLines is how many last lines of a failed hook's or server's log the console
// shows: enough for a stack trace or a "port in use", while the whole kept log (bounded to
// its first and last bytes) stays in the file named above them.
const FailedLogLines = 50

// FailedSources names the log sources ("setup hook", "server", "shared server") of s that
// failed themselves: a hook that exited non-zero or ran out of time, a managed server that
// did not start, was not ready, exited, or did not stop. A scenario failing an assertion
// while its server is fine has none: its server's access log is noise then (issue 26).
func FailedSources(s *scenario.ScenarioReport) map[string]bool {
	failed := map[string]bool{}
	for _, e := range s.Events {
		if e.Status != "failed" {
			continue
		}
		switch e.Kind {
		case "hook":
			failed[e.Name+" hook"] = true
		case "server":
			failed["server"], failed["shared server"] = true, true
		}
	}
	if s.Error != nil {
		switch s.Error.Code {
		case transport.CodeFixtureNotReady, transport.CodeFixturePortInUse:
			failed["server"], failed["shared server"] = true, true
		}
	}
	return failed
}

// WriteFailedLogs writes the last FailedLogLines lines of the log of each source of s that
// failed (FailedSources), read from artifactsDir and verified, under a line naming the
// source and the file; nothing when none failed.
func WriteFailedLogs(w io.Writer, indent, artifactsDir string, s *scenario.ScenarioReport) {
	failed := FailedSources(s)
	if len(failed) == 0 {
		return
	}
	var diags []artifacts.Meta
	for _, m := range s.Diagnostics {
		if m.Kind == "log" {
			diags = append(diags, m)
		}
	}
	for _, l := range ReadLogs(artifactsDir, diags) {
		if !failed[l.Source] {
			continue
		}
		fmt.Fprintf(w, "%s%s failed; its output (last lines of %s):\n", indent, terminalSafe(l.Source), terminalSafe(l.Path))
		for _, line := range TailLines(l.Text, FailedLogLines) {
			fmt.Fprintf(w, "%s  | %s\n", indent, terminalSafe(line))
		}
	}
}
