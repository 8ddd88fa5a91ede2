package main

import (
	"encoding/xml"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// failmsgScenario navigates to /tabs (title "Tabs"), fails a soft title assertion written
// at line 6, column 5 (a read after it still runs), then fails a hard one at line 9,
// column 5. Its layout is part of the test: the code frame is cut from it.
func failmsgScenario(site string) string {
	return fmt.Sprintf(`{
  "version": 1, "id": "failmsg",
  "fixture": {"baseUrl": %q},
  "operations": [
    {"op": "navigate", "request": {"url": "/tabs"}},
    {"id": "soft-title", "op": "assert", "soft": true,
      "request": {"kind": "title", "value": "Dashboard", "timeoutMs": 300}},
    {"id": "after", "op": "read"},
    {"id": "hard-title", "op": "assert", "request": {"kind": "title", "value": "Tabz", "timeoutMs": 300}},
    {"op": "read"}
  ]}
`, site)
}

// TestFailureShowsWhatWasThere runs a failing scenario in real Chromium and reads the
// console, junit.xml, report.html and report.json for what issue 26 asks a failure to
// show:
//   - codeFrame: each failed operation's path:line:column and the lines around its entry;
//   - soft: the soft assertion's failure is shown, the operation after it ran, and the
//     scenario failed naming it;
//   - expectedReceived: "Expected:"/"Received:" with a caret under the first difference,
//     and the call log. This part needs the worker's assertions to fill
//     OperationError.Expected, Received and CallLog (the assertion helper's change): until
//     that lands it fails, by design.
func TestFailureShowsWhatWasThere(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	t.Chdir(dir)
	writeScenario(t, dir, "failmsg.json", failmsgScenario(site.URL))
	res := runCLI(t, nil, "run", "--out", "out", "failmsg.json")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := readReport(t, filepath.Join("out", "report.json"))
	s := rep.Scenarios[0]
	junitXML, err := os.ReadFile(filepath.Join("out", "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Failure string `xml:"testsuite>testcase>failure"`
	}
	if err := xml.Unmarshal(junitXML, &doc); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("out", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	pageText := html.UnescapeString(string(page))
	outputs := map[string]string{"console": res.stdout, "junit.xml": doc.Failure, "report.html": pageText}

	t.Run("codeFrame", func(t *testing.T) {
		for i, line := range map[int]int{1: 6, 3: 9} {
			op := s.Operations[i]
			want := scenario.Location{File: "failmsg.json", Line: line, Column: 5}
			if op.Location == nil || *op.Location != want {
				t.Errorf("operations[%d] location %+v, want %+v", i, op.Location, want)
			}
			// The number column is as wide as the last number shown: ">  9 |" for lines 7–11.
			if !strings.Contains(op.CodeFrame, fmt.Sprintf("%d |     {\"id\"", line)) || !strings.Contains(op.CodeFrame, "\n> ") {
				t.Errorf("operations[%d] code frame:\n%s", i, op.CodeFrame)
			}
		}
		if s.Operations[0].Location == nil || s.Operations[0].CodeFrame != "" {
			t.Errorf("a passed operation has a location and no code frame: %+v", s.Operations[0])
		}
		frame := "  5 |     {\"op\": \"navigate\", \"request\": {\"url\": \"/tabs\"}},\n" +
			"> 6 |     {\"id\": \"soft-title\", \"op\": \"assert\", \"soft\": true,\n" +
			"    |     ^\n" +
			"  7 |       \"request\": {\"kind\": \"title\", \"value\": \"Dashboard\", \"timeoutMs\": 300}},"
		for name, out := range outputs {
			// Line by line: the console and junit.xml indent the block.
			for _, w := range append([]string{"at failmsg.json:6:5", "at failmsg.json:9:5", ">  9 |     {\"id\": \"hard-title\""}, strings.Split(frame, "\n")...) {
				if name == "report.html" {
					w = strings.Replace(w, "at failmsg.json", `at <span class="mono">failmsg.json`, 1)
				}
				if !strings.Contains(out, w) {
					t.Errorf("%s lacks %q:\n%s", name, w, out)
				}
			}
		}
		if !strings.Contains(pageText, `<pre class="codeframe">  4 |   "operations": [`+"\n"+frame) {
			t.Error("report.html has no code frame block")
		}
		if strings.Contains(s.Operations[3].CodeFrame, "12 |") {
			t.Errorf("the file's final newline shown as a line:\n%s", s.Operations[3].CodeFrame)
		}
	})

	t.Run("soft", func(t *testing.T) {
		var st []string
		for _, op := range s.Operations {
			st = append(st, op.Status)
		}
		if got := strings.Join(st, " "); got != "passed failed passed failed skipped" {
			t.Errorf("operation statuses %s: the read after the soft failure must run, the hard failure end the scenario", got)
		}
		soft := s.Operations[1]
		if s.Status != scenario.StatusFailed || !soft.Soft || soft.Error == nil || soft.Error.Code != "assertion_failed" ||
			len(soft.Evidence)+len(soft.EvidenceUnavailable) == 0 {
			t.Errorf("scenario %s, soft operation %+v", s.Status, soft)
		}
		if e := s.Error; e == nil || !strings.HasPrefix(e.Message, "1 soft assertion failed: operations[1] (assert): ") {
			t.Errorf("scenario error %+v", e)
		}
		for name, out := range map[string]string{"console": res.stdout, "junit.xml": doc.Failure} {
			for _, w := range []string{"operations[1] soft-title (assert, soft): ", "operations[3] hard-title (assert): "} {
				if !strings.Contains(out, w) {
					t.Errorf("%s lacks %q:\n%s", name, w, out)
				}
			}
		}
		if !strings.Contains(pageText, `<td class="mono">assert (soft)</td>`) {
			t.Error("report.html does not mark the soft assertion")
		}
	})

	t.Run("expectedReceived", func(t *testing.T) {
		e := s.Operations[1].Error
		if e == nil || e.Expected == "" || e.Received == "" || len(e.CallLog) == 0 {
			t.Fatalf("the assertion's error carries no expected/received/callLog (the worker's part of issue 26): %+v", e)
		}
		values := "Expected: \"Dashboard\"\nReceived: \"Tabs\"\n" + strings.Repeat(" ", 11) + "^"
		for name, out := range outputs {
			for _, w := range []string{values, "Call log:"} {
				if name == "report.html" && w == "Call log:" {
					w = `<div class="calllog"><h4>Call log</h4>`
				}
				if !strings.Contains(normaliseIndent(out), w) {
					t.Errorf("%s lacks %q:\n%s", name, w, out)
				}
			}
			if !strings.Contains(out, "  - "+e.CallLog[0]) && !strings.Contains(out, "<li class=\"mono\">"+e.CallLog[0]+"</li>") {
				t.Errorf("%s lacks the call log's first line %q", name, e.CallLog[0])
			}
		}
	})
}

// normaliseIndent drops the indent the console and junit.xml put before the Expected,
// Received and caret lines of a failure block (the caret line's is the Received line's), so
// they can be compared as the renderer writes them.
func normaliseIndent(out string) string {
	lines := strings.Split(out, "\n")
	indent := -1 // the indent of the Received line just above, -1: none
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "Expected: "), strings.HasPrefix(t, "Received: "):
			lines[i] = t
			indent = -1
			if strings.HasPrefix(t, "Received: ") {
				indent = len(l) - len(t)
			}
		case indent >= 0 && strings.HasPrefix(t, "^") && len(l) >= indent:
			lines[i] = l[indent:]
			indent = -1
		default:
			indent = -1
		}
	}
	return strings.Join(lines, "\n")
}

// TestNormaliseIndent checks the helper above on both indents it meets.
func TestNormaliseIndent(t *testing.T) {
	want := "Expected: \"Dashboard\"\nReceived: \"Tabs\"\n" + strings.Repeat(" ", 11) + "^"
	for _, indent := range []string{"  ", "        "} {
		in := "x\n" + indent + "Expected: \"Dashboard\"\n" + indent + "Received: \"Tabs\"\n" + indent + strings.Repeat(" ", 11) + "^\ny"
		if got := normaliseIndent(in); !strings.Contains(got, want) {
			t.Errorf("indent %q:\n%s", indent, got)
		}
	}
}
