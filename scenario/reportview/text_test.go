package reportview

import (
	"bytes"
	"strings"
	"testing"
)

func TestTextNamesTheFailingOperation(t *testing.T) {
	rep := failingReport(t, t.TempDir(), "title did not equal \"Dashboard\"\x1b[2K")
	var buf bytes.Buffer
	Text(&buf, rep, "artifacts")
	out := buf.String()
	for _, want := range []string{
		"failed", "1 passed, 1 failed, 0 error",
		"FAIL  login", "operations[2] check-title (assert): assertion_failed: title did not equal",
		"evidence screenshot: artifacts/sess/run1/a1.png", "evidence outline: artifacts/sess/run1/a4.json",
		"screenshot not kept: redaction_not_proven",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "home") {
		t.Error("a passed scenario should not be listed")
	}
	if strings.Contains(out, "\x1b") {
		t.Error("a control character from the report reached the terminal")
	}
}
