package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestReplayFromAnotherDirectory: a run started in the suite's directory with relative paths
// (the scenario, its fragment, the fastbrowser.json that gives the fixture) records its
// working directory, and `replay /abs/out/report.json` from an unrelated directory finds
// the scenario, its fragment and its config, and reproduces the failure. Both run as the
// binary with cmd.Dir, since the working directory is process-wide.
func TestReplayFromAnotherDirectory(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	site := runtimetest.Fixture()
	defer site.Close()
	suite, elsewhere := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(suite, "fragments"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeScenario(t, suite, "fastbrowser.json", fmt.Sprintf(`{"version": 1,
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}}}`, site.URL, site.URL+"/health"))
	writeScenario(t, suite, filepath.Join("fragments", "open.json"), `{"version": 1, "fragment": "open",
  "operations": [{"op": "navigate", "request": {"url": "/echo"}}]}`)
	writeScenario(t, suite, "wrong-title.json", `{"version": 1, "id": "wrong-title",
  "operations": [{"include": "fragments/open.json"},
    {"op": "assert", "request": {"kind": "titleContains", "value": "Dashboard", "wait": "none"}}]}`)

	run := exec.Command(bin, "run", "--out", "out", "wrong-title.json")
	run.Dir = suite
	out, err := run.CombinedOutput()
	if code := run.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("run: exit %d (%v)\n%s", code, err, out)
	}
	rep := readReport(t, filepath.Join(suite, "out", "report.json"))
	if real, _ := filepath.EvalSymlinks(suite); rep.Cwd != suite && rep.Cwd != real {
		t.Errorf("report cwd %q, want %q", rep.Cwd, suite)
	}
	if rep.Scenarios[0].File != "wrong-title.json" {
		t.Errorf("report file %q, want it as given", rep.Scenarios[0].File)
	}

	replay := exec.Command(bin, "replay", "--out", "again", filepath.Join(suite, "out", "report.json"))
	replay.Dir = elsewhere
	out, err = replay.CombinedOutput()
	if code := replay.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out), "reproduced: true") {
		t.Fatalf("replay from elsewhere: exit %d (%v)\n%s", code, err, out)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "again", "report.json")); err != nil {
		t.Errorf("the replay's report is not under the directory it ran in: %v", err)
	}
}
