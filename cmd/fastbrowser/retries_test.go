package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
)

// retrySite answers every page with the title "Warming up" while warm does not exist and
// "Ready" once it does; a scenario's cleanup hook creates it.
func retrySite(t *testing.T, warm string) string {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		state := "Warming up"
		if _, err := os.Stat(warm); err == nil {
			state = "Ready"
		}
		fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><p>%s</p></body></html>", state, state)
	}))
	t.Cleanup(site.Close)
	return site.URL
}

// retryScenario asserts the title is want; its cleanup hook creates warm.
func retryScenario(t *testing.T, dir, id, base, warm, want string) string {
	return writeScenario(t, dir, id+".json", fmt.Sprintf(`{
  "version": 1, "id": %q, "fixture": {"baseUrl": %q},
  "hooks": {"cleanup": {"command": "/bin/sh", "args": ["-c", "touch \"$0\"", %q]}},
  "operations": [
    {"op": "navigate", "request": {"url": "/"}},
    {"id": "title", "op": "assert", "request": {"kind": "title", "value": %q, "wait": "none"}}
  ]}`, id, base, warm, want))
}

// junitCases reads junit.xml's testcases after checking the file against the schema rules.
func junitCases(t *testing.T, path string) []junittest.Case {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := junittest.Cases(data)
	if err != nil {
		t.Fatalf("junit.xml: %v\n%s", err, data)
	}
	return cases
}

// TestRetriesFlakyPasses: with --retries 1, a scenario that fails its first attempt and
// passes its second is FLAKY, exits 0, and is flaky in every report: two attempts in
// report.json, a passed testcase with a <flakyFailure> in junit.xml, a badge in report.html.
func TestRetriesFlakyPasses(t *testing.T) {
	dir := t.TempDir()
	warm := filepath.Join(dir, "warm")
	f := retryScenario(t, dir, "warms-up", retrySite(t, warm), warm, "Ready")
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--retries", "1", "--out", out, f)
	if res.code != 0 {
		t.Fatalf("exit %d, want 0\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"FLAKY warms-up (", " ms, passed on attempt 2)\n", "\n0 passed, 1 flaky, 0 failed, 0 error in ", "html:   " + filepath.Join(out, "report.html")} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	sr := r.Scenarios[0]
	if r.Status != "passed" || sr.Status != "flaky" || len(sr.Attempts) != 2 || sr.Attempts[0].Status != "failed" || sr.Attempts[1].Status != "passed" ||
		sr.Attempts[0].Operation == nil || sr.Attempts[0].Operation.ID != "title" {
		t.Fatalf("report: run %s, scenario %s, attempts %+v", r.Status, sr.Status, sr.Attempts)
	}
	cases := junitCases(t, filepath.Join(out, "junit.xml"))
	if len(cases) != 1 || cases[0].Failure != nil || len(cases[0].FlakyFailures) != 1 ||
		!strings.HasPrefix(cases[0].FlakyFailures[0].Message, "attempt 1: assertion_failed: ") ||
		!strings.Contains(cases[0].FlakyFailures[0].StackTrace, "operations[1] title (assert): failed") {
		t.Fatalf("junit testcases %+v", cases)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !strings.Contains(string(page), `<span class="badge s-flaky">flaky</span>`) || !strings.Contains(string(page), "<h3>Attempts</h3>") {
		t.Errorf("report.html does not show the flaky scenario (%v)", err)
	}
}

// TestRetriesAlwaysFailing: with --retries 2 a scenario that always fails runs 3 times, is
// failed with 3 attempts and a <failure> plus 2 <rerunFailure> in junit.xml, exits 1, and
// --fail-fast acts on that final outcome only (the next scenario is skipped).
func TestRetriesAlwaysFailing(t *testing.T) {
	dir := t.TempDir()
	warm := filepath.Join(dir, "warm")
	base := retrySite(t, warm)
	always := retryScenario(t, dir, "always", base, warm, "Never")
	after := retryScenario(t, dir, "zafter", base, warm, "Ready")
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--retries", "2", "--fail-fast", "--jobs", "1", "--out", out, always, after)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, " ms, 3 attempts)\n      operations[1] title (assert): assertion_failed: ") {
		t.Errorf("stdout:\n%s", res.stdout)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	sr := r.Scenarios[0]
	if r.Status != "failed" || sr.Status != "failed" || len(sr.Attempts) != 3 || r.Scenarios[1].Status != "skipped" {
		t.Fatalf("report: run %s, scenario %s with %d attempts, next %s", r.Status, sr.Status, len(sr.Attempts), r.Scenarios[1].Status)
	}
	for i, a := range sr.Attempts {
		if a.Status != "failed" || a.Operation == nil || a.Operation.Error == nil || a.Operation.Error.Code != "assertion_failed" {
			t.Errorf("attempt %d = %+v", i+1, a)
		}
	}
	cases := junitCases(t, filepath.Join(out, "junit.xml"))
	if len(cases) != 2 || cases[0].Failure == nil || len(cases[0].RerunFailures) != 2 || len(cases[0].FlakyFailures) != 0 || cases[1].Skipped == nil {
		t.Fatalf("junit testcases %+v", cases)
	}
}

// TestRetriesBound: --retries outside 0..5 is a usage error; nothing runs.
func TestRetriesBound(t *testing.T) {
	for _, n := range []string{"6", "-1"} {
		res := runCLI(t, nil, "run", "--retries", n, "--out", filepath.Join(t.TempDir(), "out"), "no-such-file.json")
		if res.code != 2 || !strings.Contains(res.stderr, "--retries "+n+": expected 0 to 5") {
			t.Errorf("--retries %s: exit %d\n%s%s", n, res.code, res.stdout, res.stderr)
		}
	}
}
