package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestReplayReproduces is the evidence issue's acceptance 5: replaying a failed run's report
// re-runs the scenario up to and including the failed operation, reproduces the same code at
// the same operation and exits 1; once the scenario file is edited, replay refuses it (exit
// 2) unless forced.
func TestReplayReproduces(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f, body, report := failedRun(t, dir, site.URL)

	replayOut := filepath.Join(dir, "replay")
	res := runCLI(t, nil, "replay", "--out", replayOut, report)
	if res.code != 1 || !strings.Contains(res.stdout, "reproduced: true") {
		t.Fatalf("replay exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	ops := readReport(t, filepath.Join(replayOut, "report.json")).Scenarios[0].Operations
	if len(ops) != 2 || ops[1].Status != "failed" || ops[1].Error.Code != "assertion_failed" {
		t.Fatalf("replayed operations %+v", ops)
	}

	// Edit the file: the title the scenario expects is now right, so a forced replay passes
	// and says the failure did not reproduce.
	if err := os.WriteFile(f, []byte(strings.Replace(body, `"Dashboard"`, `"Sign in"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runCLI(t, nil, "replay", "--out", replayOut, report)
	if res.code != 2 || !strings.Contains(res.stderr, "changed since the run") {
		t.Fatalf("edited file: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "replay", "--force", "--json", "--out", replayOut, report)
	if res.code != 0 || !strings.Contains(res.stdout, `"reproduced":false`) {
		t.Fatalf("forced replay: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// failedRun writes a scenario that fails at its second operation (a title assertion on
// /form) to dir, runs it against the fixture at base and returns the file, its text and the
// run's report.
func failedRun(t *testing.T, dir, base string) (file, body, report string) {
	t.Helper()
	body = fmt.Sprintf(`{
  "version": 1, "id": "replay-me",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/form"}},
    {"id": "wrong-title", "op": "assert", "request": {"kind": "title", "value": "Dashboard", "wait": "none"}},
    {"id": "later", "op": "read"}
  ]}`, base, base+"/health")
	file = writeScenario(t, dir, "replay.json", body)
	out := filepath.Join(dir, "run")
	if res := runCLI(t, nil, "run", "--out", out, file); res.code != 1 {
		t.Fatalf("run exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	return file, body, filepath.Join(out, "report.json")
}

// TestReplayOfAPassedScenarioSaysSo: `replay --scenario ID` of a scenario that passed runs it
// and says there was no failure to reproduce (not "the run failed with  at …"); flags may
// follow REPORT.json.
func TestReplayOfAPassedScenarioSaysSo(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "fine.json", fmt.Sprintf(`{
  "version": 1, "id": "fine",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [{"op": "navigate", "request": {"url": "/form"}}]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	if res := runCLI(t, nil, "run", "--out", out, f); res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res := runCLI(t, nil, "replay", filepath.Join(out, "report.json"), "--scenario", "fine", "--out", filepath.Join(dir, "replay"))
	if res.code != 0 || !strings.Contains(res.stdout, "reproduced: false (the scenario passed in the run: there was no failure to reproduce; the replay passed)") {
		t.Fatalf("replay: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
