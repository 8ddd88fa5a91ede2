package reportview

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// withFailureDetail gives rep's failing assertion what issue 26 adds to a failure: the
// assertion's expected and received (page text, here markup), a call log, its location and
// code frame.
func withFailureDetail(rep *scenario.Report) *scenario.OperationReport {
	op := &rep.Scenarios[1].Operations[2]
	op.Error.Expected, op.Error.Received = "Dashboard", "<b>Dash</b>"
	op.Error.CallLog = []string{`waiting for title to be "Dashboard"`, `3 × title "<b>Dash</b>"`}
	op.Location = &scenario.Location{File: "scenarios/login.json", Line: 12, Column: 5}
	op.CodeFrame = "> 12 |     {\"op\": \"assert\"}\n     |     ^"
	return op
}

// TestHTMLShowsTheFailure: report.html shows expected/received lined up with the caret, the
// call log as a list, the location and the code frame — every page-derived value escaped.
func TestHTMLShowsTheFailure(t *testing.T) {
	dir := t.TempDir()
	rep := failingReport(t, dir, "title did not equal")
	withFailureDetail(rep)
	out := render(t, dir, rep)
	if strings.Contains(out, "<b>Dash") {
		t.Fatal("received page text reached the page as markup")
	}
	text := html.UnescapeString(out)
	for _, w := range []string{
		"<pre class=\"exprec\">Expected: \"Dashboard\"\nReceived: \"<b>Dash</b>\"\n" + strings.Repeat(" ", 11) + "^</pre>",
		`<div class="calllog"><h4>Call log</h4><ul><li class="mono">waiting for title to be "Dashboard"</li><li class="mono">3 × title "<b>Dash</b>"</li></ul></div>`,
		`<div class="location">at <span class="mono">scenarios/login.json:12:5</span></div>`,
		"<pre class=\"codeframe\">> 12 |     {\"op\": \"assert\"}\n     |     ^</pre>",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("report.html lacks %q", w)
		}
	}
}

// TestTextShowsTheFailure: `fastbrowser report` prints the same block under the failing
// operation.
func TestTextShowsTheFailure(t *testing.T) {
	rep := failingReport(t, t.TempDir(), "title did not equal")
	withFailureDetail(rep)
	var buf bytes.Buffer
	Text(&buf, rep, "artifacts")
	want := strings.Join([]string{
		"      operations[2] check-title (assert): assertion_failed: title did not equal",
		`        Expected: "Dashboard"`,
		`        Received: "<b>Dash</b>"`,
		"                   ^",
		"        Call log:",
		`          - waiting for title to be "Dashboard"`,
		`          - 3 × title "<b>Dash</b>"`,
		"        at scenarios/login.json:12:5",
		`        > 12 |     {"op": "assert"}`,
		"             |     ^",
	}, "\n")
	if !strings.Contains(buf.String(), want) {
		t.Errorf("report output:\n%s\nwant:\n%s", buf.String(), want)
	}
}
