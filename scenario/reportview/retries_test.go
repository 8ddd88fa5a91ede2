package reportview

import (
	"bytes"
	"encoding/base64"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// flakyReport makes failingReport's "login" flaky: attempt 1 failed at check-title with a
// screenshot in its own directory, attempt 2 passed.
func flakyReport(t *testing.T, dir string) *scenario.Report {
	rep := failingReport(t, dir, "title was Warming up")
	login := &rep.Scenarios[1]
	failed := login.Operations[2]
	failed.Evidence = append(failed.Evidence[:0:0], writeArtifact(t, dir, "sess/run1/b1.png", transport.PartScreenshot, "image/png", pngBytes(t, 30, 20)))
	failed.EvidenceUnavailable = nil
	login.Attempts = []scenario.Attempt{
		{Attempt: 1, Status: scenario.StatusFailed, DurationMs: 700, Events: login.Events, Operation: &failed},
		{Attempt: 2, Status: scenario.StatusPassed, DurationMs: 200, Events: login.Events},
	}
	login.Status, login.DurationMs = scenario.StatusFlaky, 900
	login.Operations[2] = scenario.OperationReport{Index: 2, ID: "check-title", Op: "assert", Status: scenario.StatusPassed}
	rep.Status = scenario.StatusPassed
	return rep
}

// TestHTMLShowsAttempts: a flaky scenario is counted and badged flaky, starts expanded, and
// lists its attempts with the failed attempt's error and embedded evidence.
func TestHTMLShowsAttempts(t *testing.T) {
	dir := t.TempDir()
	out := render(t, dir, flakyReport(t, dir))
	png, _ := os.ReadFile(filepath.Join(dir, "sess/run1/b1.png"))
	for _, want := range []string{
		`<span>1 passed</span><span>1 flaky</span>`,
		`<details class="card scenario b-flaky" open>`,
		`<span class="badge s-flaky">flaky</span>`,
		"<h3>Attempts</h3>", "<h3>Operations (attempt 2)</h3>",
		"operations[2] check-title (assert)", "assertion_failed", "title was Warming up",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(html.UnescapeString(out), base64.StdEncoding.EncodeToString(png)) {
		t.Error("the failed attempt's screenshot is not embedded")
	}
}

// TestTextShowsAttempts: `fastbrowser report` counts flaky scenarios and lists each attempt
// of one with its failure and evidence.
func TestTextShowsAttempts(t *testing.T) {
	var buf bytes.Buffer
	Text(&buf, flakyReport(t, t.TempDir()), "artifacts")
	out := buf.String()
	for _, want := range []string{
		"passed — 1 passed, 1 flaky, 0 failed, 0 error",
		"FLAKY login (scenarios/login.json)",
		"      attempt 1: failed\n        operations[2] check-title (assert): assertion_failed: title was Warming up\n          evidence screenshot: artifacts/sess/run1/b1.png\n",
		"      attempt 2: passed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}
