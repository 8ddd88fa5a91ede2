package reportview

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestHTMLTrace: a kept trace renders as a timeline and a filmstrip whose pictures are
// referenced relative to the page, each only once its file verified: a picture whose file
// changed after the report was written is not referenced and its step says why, as is a
// step that kept none. A step not captured again (sameAs) shows the picture of the step
// that stands for it, and says so. The page still runs no script.
func TestHTMLTrace(t *testing.T) {
	dir := t.TempDir()
	art := filepath.Join(dir, "artifacts")
	good := writeArtifact(t, art, "s/r.trace/a-1.png", "screenshot", "image/png", pngBytes(t, 40, 30))
	bad := writeArtifact(t, art, "s/r.trace/a-2.png", "screenshot", "image/png", pngBytes(t, 40, 30))
	if err := os.WriteFile(filepath.Join(art, bad.Path), pngBytes(t, 41, 30), 0o600); err != nil {
		t.Fatal(err)
	}
	cons := writeArtifact(t, art, "s/r.trace/a-3.json", "console", "application/json",
		jsonBytes(t, transport.ConsoleSummary{Entries: []transport.ConsoleEntry{{Level: "error", Message: "boom <b>", Count: 2}}}))
	zero := 0
	rep := &scenario.Report{Version: 1, RunID: "r", Status: "failed", Scenarios: []scenario.ScenarioReport{{ID: "s", Status: "failed",
		Trace: []scenario.TraceStep{
			{Index: 0, Op: "navigate", StartMs: 0, DurationMs: 50, Status: "passed", Screenshot: &good, Console: &cons,
				Redaction: &transport.RedactionProof{Rules: []string{"password"}, Matched: 1, Masked: 1, Proven: true}},
			{Index: 1, Op: "act", StartMs: 100, DurationMs: 10, Status: "passed", ScreenshotUnavailable: "redaction_not_proven: screenshot not kept: the redaction was not proven"},
			{Index: 2, Op: "assert", StartMs: 120, DurationMs: 5, Status: "passed", SameAs: &zero, Console: &cons,
				ScreenshotUnavailable: "not captured: a passed assert does not change the page; the latest picture is step #0's"},
			{Index: 3, Op: "assert", StartMs: 150, DurationMs: 50, Status: "failed", Screenshot: &bad, FromEvidence: true},
		}}}}
	var buf bytes.Buffer
	if err := HTML(&buf, rep, art); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`class="timeline"`, `class="filmstrip"`,
		`src="artifacts/s/r.trace/a-1.png"`,
		`style="left:0.00%;width:25.00%"`, `style="left:75.00%;width:25.00%"`,
		`no picture: redaction_not_proven: screenshot not kept: the redaction was not proven`,
		`no picture: screenshot file unavailable: size mismatch`,
		`redaction proven: 1 matched, 1 masked, 0 unmasked`,
		`boom &lt;b&gt;`,
		`id="t0-3" checked`, // the failed step is shown first
		`class="f-passed f-same"`, `<span class="mono">= #0</span>`,
		`not captured: a passed assert does not change the page; the latest picture is step #0&#39;s`,
		`alt="the page after step #0"`, `step #0's screenshot 40×30`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(out, `src="artifacts/s/r.trace/a-1.png"`); n != 4 {
		t.Errorf("step 0's picture is referenced %d times, want 4 (its own and step 2's, each a thumbnail and large)", n)
	}
	if strings.Contains(out, "a-2.png\"") || strings.Contains(out, "<script") {
		t.Error("the page references a picture that did not verify, or has a script")
	}
	var text bytes.Buffer
	Text(&text, rep, art)
	if !strings.Contains(text.String(), "trace: 4 steps, 2 with a picture, 1 shown by an earlier one (read-only)") {
		t.Errorf("the text summary does not count the step not captured again:\n%s", text.String())
	}
	// A page written elsewhere reaches the pictures by a path from its own directory.
	elsewhere := filepath.Join(dir, "html", "r.html")
	if err := os.MkdirAll(filepath.Dir(elsewhere), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTMLFile(elsewhere, rep, art, nil, artifacts.ModePrivate); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(elsewhere); !strings.Contains(string(b), `src="../artifacts/s/r.trace/a-1.png"`) {
		t.Error("a page written elsewhere does not reach the pictures from its directory")
	}
}
