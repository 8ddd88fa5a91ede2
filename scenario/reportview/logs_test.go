package reportview

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// TestLogsShownOnlyVerified: a failed scenario's hook log is shown (its last lines on the
// terminal, with a path joined to the artifacts directory; its text on the page) only when
// its bytes match the report; a log changed after the run is "log file unavailable", never
// shown. A flaky scenario's logs are not shown.
func TestLogsShownOnlyVerified(t *testing.T) {
	dir := t.TempDir()
	var body strings.Builder
	body.WriteString("[fastbrowser: setup hook output, stdout and stderr, 999 bytes]\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&body, "line %d\n", i)
	}
	const textLog = "text/plain; charset=utf-8"
	good := writeArtifact(t, dir, "s/r/good.log", "log", textLog, []byte(body.String()))
	bad := writeArtifact(t, dir, "s/r/bad.log", "log", textLog, []byte("[fastbrowser: server output, stdout and stderr, 9 bytes]\noriginal\n"))
	if err := os.WriteFile(filepath.Join(dir, bad.Path), []byte("[fastbrowser: server output, stdout and stderr, 9 bytes]\nTAMPERED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	flakyLog := writeArtifact(t, dir, "s/r/flaky.log", "log", textLog, []byte("flaky attempt output\n"))
	rep := &scenario.Report{Version: 1, RunID: "r", Status: scenario.StatusFailed, Scenarios: []scenario.ScenarioReport{
		{ID: "failed", Status: scenario.StatusFailed, Diagnostics: []artifacts.Meta{good, bad}},
		{ID: "flaky", Status: scenario.StatusFlaky, Diagnostics: []artifacts.Meta{flakyLog}},
	}}

	var text bytes.Buffer
	Text(&text, rep, dir)
	out := text.String()
	for _, w := range []string{
		"setup hook output (last lines of " + filepath.Join(dir, "s/r/good.log") + "):",
		"  | line 19\n", "  | line 30\n",
		"log output (last lines of " + filepath.Join(dir, "s/r/bad.log") + "):", "| log file unavailable (sha256 mismatch)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("terminal summary lacks %q:\n%s", w, out)
		}
	}
	for _, never := range []string{"| line 18\n", "TAMPERED", "original", "flaky attempt output", "[fastbrowser: setup"} {
		if strings.Contains(out, never) {
			t.Errorf("terminal summary shows %q:\n%s", never, out)
		}
	}

	var page bytes.Buffer
	if err := HTML(&page, rep, dir); err != nil {
		t.Fatal(err)
	}
	p := html.UnescapeString(page.String())
	if !strings.Contains(p, "<h3>setup hook output</h3>") || !strings.Contains(p, "line 1\nline 2\n") ||
		!strings.Contains(p, "log file unavailable (sha256 mismatch)") {
		t.Error("the page does not show the verified log and the refusal")
	}
	for _, never := range []string{"TAMPERED", "flaky attempt output"} {
		if strings.Contains(p, never) {
			t.Errorf("the page shows %q", never)
		}
	}
}
