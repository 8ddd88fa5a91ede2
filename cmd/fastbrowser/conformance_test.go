package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	if rep.Passed != 9 || rep.Failed != 0 || len(rep.Checks) != 9 {
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
// navigation as a success, the command fails redirect-denied, exit 1.
func TestConformanceFailsDenialIgnoringWorker(t *testing.T) {
	t.Parallel()
	conformanceFailsOnly(t, "ignore-denial", conformance.CheckRedirectDenied)
}

// conformanceFailsOnly runs the command against the broken worker of mode and requires
// exactly the check named fail to fail.
func conformanceFailsOnly(t *testing.T, mode, fail string) {
	t.Helper()
	path, args, err := runtimetest.BrokenWorker(mode)
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	r := runCLI(t, nil, "conformance", "--worker", strings.Join(append([]string{path}, args...), " "), "--report", report)
	if r.code != 1 || !strings.Contains(r.stdout, "\nFAIL "+fail+": ") || !strings.HasSuffix(r.stdout, "\n12 passed, 1 failed\n") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, c := range readConformanceReport(t, report).Checks {
		if (c.Status == conformance.StatusFail) != (c.Name == fail) {
			t.Errorf("report check %+v", c)
		}
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
