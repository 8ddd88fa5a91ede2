package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/conformance"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// readConformanceReport reads the JSON report a conformance run wrote.
func readConformanceReport(t *testing.T, path string) conformance.Report {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep conformance.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	return rep
}

// TestConformancePassesOurWorker: `fastbrowser conformance` against our own worker prints a
// PASS line per check and the summary, writes the report, and exits 0.
func TestConformancePassesOurWorker(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, nil, "conformance", "--report", report)
	if r.code != 0 || !strings.HasSuffix(r.stdout, "\n13 passed, 0 failed\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	rep := readConformanceReport(t, report)
	if n := len(conformance.Names()); rep.Passed != n || rep.Failed != 0 || len(rep.Checks) != n {
		t.Fatalf("report %+v", rep)
	}
	for i, name := range conformance.Names() {
		if c := rep.Checks[i]; c.Name != name || c.Status != conformance.StatusPass || c.Message != "" {
			t.Errorf("report check %d: %+v, want %s passed", i, c, name)
		}
	}
}

// TestConformanceFailsLeakingWorker: against a worker that puts the typed secret in its
// act receipts, the command fails masked-value-absent, on its line and in the report, exit 1.
func TestConformanceFailsLeakingWorker(t *testing.T) {
	t.Parallel()
	conformanceFailsOnly(t, "leak-receipt", conformance.CheckMaskedValue)
}

// TestConformanceFailsDenialIgnoringWorker: against a worker that answers a refused
// navigation as a success, the command fails every check whose denial reaches the worker
// through a redirect, exit 1.
func TestConformanceFailsDenialIgnoringWorker(t *testing.T) {
	t.Parallel()
	conformanceFailsOnly(t, "ignore-denial", conformance.CheckRedirectDenied, conformance.CheckEgressPostures, conformance.CheckBindingNarrowing)
}

// conformanceFailsOnly runs the command against the broken worker of mode and requires
// exactly the checks named fail to fail.
func conformanceFailsOnly(t *testing.T, mode string, fail ...string) {
	t.Helper()
	path, args, err := runtimetest.BrokenWorker(mode)
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, nil, "conformance", "--worker", strings.Join(append([]string{path}, args...), " "), "--report", report)
	summary := fmt.Sprintf("\n%d passed, %d failed\n", len(conformance.Names())-len(fail), len(fail))
	if r.code != 1 || !strings.HasSuffix(r.stdout, summary) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, name := range fail {
		if !strings.Contains(r.stdout, "\nFAIL "+name+": ") {
			t.Errorf("no FAIL line for %s:\n%s", name, r.stdout)
		}
	}
	for _, c := range readConformanceReport(t, report).Checks {
		if (c.Status == conformance.StatusFail) != slices.Contains(fail, c.Name) {
			t.Errorf("report check %+v", c)
		}
	}
}

// TestConformanceWithSessionConfig: `conformance --config FILE` opens the suite's sessions
// with the file's session block and still passes against our worker (its page_text
// defaults are checked on the main session); a session block it cannot use, or a binding
// that does not allow the fixture, is refused before anything runs (exit 2 / exit 1 "open").
func TestConformanceWithSessionConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`{"version":1,"session":{"idleTimeoutS":120,"requestTimeoutMs":60000,"pageText":{"maxNodes":30,"maxDepth":8,"maxTextChars":800},"handoffClasses":["login"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "report.json")
	r := runCLI(t, nil, "conformance", "--config", good, "--report", report)
	if r.code != 0 || !strings.HasSuffix(r.stdout, fmt.Sprintf("\n%d passed, 0 failed\n", len(conformance.Names()))) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"version":1,"session":{"pageText":{"maxNodes":-1}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, nil, "conformance", "--config", bad, "--report", report); r.code != 2 || !strings.Contains(r.stderr, "session.pageText.maxNodes") {
		t.Fatalf("a bad session block: exit %d stderr %s", r.code, r.stderr)
	}
	r = runCLI(t, nil, "conformance", "--binding-origin", "http://127.0.0.1:1", "--report", report)
	if r.code != 1 || !strings.Contains(r.stdout, "FAIL open: ") || !strings.Contains(r.stdout, "do not allow the fixture") {
		t.Fatalf("a binding without the fixture: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestConformanceUsage: a fixture URL that is not http(s) is a usage error; nothing runs.
func TestConformanceUsage(t *testing.T) {
	t.Parallel()
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, nil, "conformance", "--fixture-url", "ftp://127.0.0.1:1", "--report", report)
	if r.code != 2 || !strings.Contains(r.stderr, "--fixture-url: expected an http or https URL") {
		t.Fatalf("exit %d stderr %s", r.code, r.stderr)
	}
	if _, err := os.Stat(report); !os.IsNotExist(err) {
		t.Fatalf("a report was written: %v", err)
	}
}
