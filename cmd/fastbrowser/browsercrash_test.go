package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// killerSite serves the fixture site plus /kill-browser, which SIGKILLs the browser kill
// names and then holds the request until the browser's connection drops (bounded): the
// navigation that asked for it is in flight when the browser dies.
func killerSite(t *testing.T, kill func() int) *httptest.Server {
	site := fixture.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/kill-browser" {
			site.ServeHTTP(w, r)
			return
		}
		pid := kill()
		if pid <= 0 {
			t.Errorf("/kill-browser: no browser to kill")
			http.Error(w, "no browser", http.StatusInternalServerError)
			return
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
		select {
		case <-r.Context().Done():
		case <-time.After(budgets.Navigation().Default):
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// browserUnder finds the main Chromium process whose profile lies directly in dir (its
// helpers carry --type=).
func browserUnder(dir string) int {
	for pid, cmd := range proctest.Cmdlines("--user-data-dir=" + filepath.Join(dir, "fastbrowser-profile-")) {
		if !strings.Contains(cmd, "--type=") {
			return pid
		}
	}
	return 0
}

// crashScenarios writes three scenarios against site; the second kills the browser during
// its second operation.
func crashScenarios(t *testing.T, dir, site string) {
	t.Helper()
	fix := fmt.Sprintf(`"fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}}`, site, site+"/health")
	ok := `[{"op": "navigate", "request": {"url": "/"}}, {"op": "assert", "request": {"kind": "titleContains", "value": "Fixture"}}]`
	writeScenario(t, dir, "1-before.json", fmt.Sprintf(`{"version": 1, "id": "before", %s, "operations": %s}`, fix, ok))
	writeScenario(t, dir, "2-killed.json", fmt.Sprintf(`{"version": 1, "id": "killed", %s, "operations": [
  {"op": "navigate", "request": {"url": "/"}},
  {"id": "kill", "op": "navigate", "request": {"url": "/kill-browser"}},
  {"op": "read"}]}`, fix))
	writeScenario(t, dir, "3-after.json", fmt.Sprintf(`{"version": 1, "id": "after", %s, "operations": %s}`, fix, ok))
}

// TestRunRelaunchesDeadBrowser is issue 16 item 11 at `run`: Chromium SIGKILLed during
// scenario 2's navigation fails that navigation browser_crashed (unknown, retry never), the
// run relaunches the browser and says so, scenario 3 passes in the new one, and neither
// browser nor either profile is left behind. The run is the real binary with a TMPDIR of its
// own, so its browser is the one Chromium whose profile lies there.
func TestRunRelaunchesDeadBrowser(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	// Short: Chromium's singleton socket path under it must fit a unix socket's 108 bytes.
	runTmp, err := os.MkdirTemp("", "run")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(runTmp)
	site := killerSite(t, func() int { return browserUnder(runTmp) })
	dir := t.TempDir()
	crashScenarios(t, dir, site.URL)
	out := filepath.Join(dir, "out")
	before := runtimetest.Take()

	ctx, cancel := context.WithTimeout(context.Background(), 3*budgets.ScenarioRun().Default)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", "--jobs", "1", "--out", out, dir)
	cmd.Env = append(os.Environ(), "TMPDIR="+runTmp)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("run: %v, want exit 1\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}

	r := readReport(t, filepath.Join(out, "report.json"))
	if len(r.Scenarios) != 3 {
		t.Fatalf("report has %d scenarios", len(r.Scenarios))
	}
	first, killed, after := r.Scenarios[0], r.Scenarios[1], r.Scenarios[2]
	if first.Status != scenario.StatusPassed {
		t.Errorf("scenario 1: %s %+v", first.Status, first.Error)
	}
	if killed.Status != scenario.StatusFailed {
		t.Errorf("scenario 2: status %s, error %+v", killed.Status, killed.Error)
	}
	e := killed.Operations[1].Error
	if e == nil || e.Code != "browser_crashed" || e.MutationState != "unknown" || e.Retry != "never" {
		t.Errorf("scenario 2's in-flight navigate: %+v", e)
	}
	if killed.Operations[2].Status != scenario.StatusSkipped {
		t.Errorf("scenario 2's later read: %+v", killed.Operations[2])
	}
	if after.Status != scenario.StatusPassed {
		t.Errorf("scenario 3: status %s, error %+v, operations %+v", after.Status, after.Error, after.Operations)
	}
	if !hasEvent(after.Events, "runtime", "relaunch", "ok") || hasEvent(first.Events, "runtime", "relaunch", "ok") || hasEvent(killed.Events, "runtime", "relaunch", "ok") {
		t.Errorf("the relaunch is not recorded on scenario 3 alone: %+v / %+v / %+v", first.Events, killed.Events, after.Events)
	}
	if !strings.Contains(stderr.String(), "the browser died (signal killed); relaunch for the remaining scenarios: ok") {
		t.Errorf("stderr does not announce the relaunch:\n%s", stderr.String())
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Error(err)
	}
	if left, _ := filepath.Glob(filepath.Join(runTmp, "fastbrowser-profile-*")); len(left) > 0 {
		t.Errorf("profiles left behind: %v", left)
	}
}

func hasEvent(evs []scenario.Event, kind, name, status string) bool {
	for _, e := range evs {
		if e.Kind == kind && e.Name == name && e.Status == status {
			return true
		}
	}
	return false
}

// TestRunAttachedBrowserDies: with --cdp-url there is nothing to relaunch. The scenario
// running when the attached browser dies fails browser_crashed, and the ones after it end
// at once with an error that says the attached browser is gone, not launch_failed.
func TestRunAttachedBrowserDies(t *testing.T) {
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	site := killerSite(t, b.Pid)
	dir := t.TempDir()
	crashScenarios(t, dir, site.URL)
	writeScenario(t, dir, "4-later.json", fmt.Sprintf(`{"version": 1, "id": "later", "fixture": {"baseUrl": %q},
  "operations": [{"op": "navigate", "request": {"url": "/"}}]}`, site.URL))
	res := runCLI(t, nil, "run", "--jobs", "1", "--cdp-url", b.WebSocketURL(), "--out", filepath.Join(dir, "out"), dir)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(dir, "out", "report.json"))
	if len(r.Scenarios) != 4 || r.Scenarios[0].Status != scenario.StatusPassed {
		t.Fatalf("report %+v", r.Scenarios)
	}
	if e := r.Scenarios[1].Operations[1].Error; e == nil || e.Code != "browser_crashed" || e.MutationState != "unknown" {
		t.Errorf("scenario 2's in-flight navigate: %+v", e)
	}
	for _, s := range r.Scenarios[2:] {
		e := s.Error
		if s.Status != scenario.StatusError || e == nil || e.Code != "browser_crashed" || !strings.Contains(e.Message, "--cdp-url died during an earlier scenario") {
			t.Errorf("scenario %s after the attached browser died: %s %+v", s.ID, s.Status, e)
		}
		if hasEvent(s.Events, "runtime", "relaunch", "ok") {
			t.Errorf("scenario %s: an attached browser was relaunched", s.ID)
		}
	}
}
