package reportview

import (
	"path/filepath"
	"strings"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// Bounds on how much of a hook's or server's log a report shows: the log artifact itself is
// already bounded and scrubbed (scenario/server.go), these keep a page or a terminal short.
const (
	htmlLogBytes = 16 << 10 // the last 16 KiB of each log on report.html
	// TextLogLines is how many last lines of each log the terminal shows for a failure.
	TextLogLines = 12
)

// Log is one verified hook or server log of a scenario: its source ("server", "setup
// hook"…), where it is, and its text.
type Log struct {
	Source string
	Path   string // the file, joined to the artifacts directory given
	Text   string
	Meta   artifacts.Meta
}

// ReadLogs reads the scenario's "log" diagnostics from artifactsDir, each only if it
// verifies against its metadata (as evidence is), in order. A log that does not verify is
// returned with Text saying why, never guessed at.
func ReadLogs(artifactsDir string, diags []artifacts.Meta) []Log {
	var logs []Log
	for _, m := range diags {
		if m.Kind != "log" {
			continue
		}
		l := Log{Source: "log", Path: filepath.Join(artifactsDir, filepath.FromSlash(m.Path)), Meta: m}
		data, err := readEvidence(artifactsDir, m)
		if err != nil {
			l.Text = "log file unavailable (" + err.Error() + ")"
			logs = append(logs, l)
			continue
		}
		l.Text = string(data)
		// The store's header line names the source ("[fastbrowser: server output, …]"); the
		// reports name it in their own heading instead.
		if head, rest, ok := strings.Cut(l.Text, "\n"); ok && strings.HasPrefix(head, "[fastbrowser: ") {
			if src, _, ok := strings.Cut(strings.TrimPrefix(head, "[fastbrowser: "), " output,"); ok {
				l.Source, l.Text = src, rest
			}
		}
		logs = append(logs, l)
	}
	return logs
}

// ShowsLogs says whether the reports show a scenario's hook and server logs: when its final
// outcome is not a pass (a flaky scenario's logs are those of the attempt that passed).
func ShowsLogs(status string) bool {
	switch status {
	case scenario.StatusPassed, scenario.StatusFlaky, scenario.StatusSkipped:
		return false
	}
	return true
}

// TailLines is the last n lines of text (a trailing newline ends the last line, it does not
// start another).
func TailLines(text string, n int) []string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// tailBytes is the end of text, at most n bytes, cut at a line start when one is near.
func tailBytes(text string, n int) (string, bool) {
	if len(text) <= n {
		return text, false
	}
	t := text[len(text)-n:]
	if i := strings.IndexByte(t, '\n'); i >= 0 && i < 512 {
		t = t[i+1:]
	}
	return strings.ToValidUTF8(t, ""), true
}
