package scenario

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestRunAttemptsPolicy: which outcomes run again, how often, and what the report says.
func TestRunAttemptsPolicy(t *testing.T) {
	for _, c := range []struct {
		name     string
		retries  int
		cancel   bool // the run is cancelled after the first attempt
		outcomes []string
		calls    int
		status   string
		attempts int
	}{
		{"passes at once", 2, false, []string{StatusPassed}, 1, StatusPassed, 0},
		{"no retries", 0, false, []string{StatusFailed}, 1, StatusFailed, 0},
		{"passes on the second attempt", 2, false, []string{StatusFailed, StatusPassed}, 2, StatusFlaky, 2},
		{"an error is retried too", 2, false, []string{StatusError, StatusFailed, StatusPassed}, 3, StatusFlaky, 3},
		{"fails every attempt", 2, false, []string{StatusFailed, StatusFailed, StatusFailed}, 3, StatusFailed, 3},
		{"the last attempt decides", 1, false, []string{StatusFailed, StatusError}, 2, StatusError, 2},
		{"interrupted is never retried", 2, false, []string{StatusInterrupted}, 1, StatusInterrupted, 0},
		{"skipped is never retried", 2, false, []string{StatusSkipped}, 1, StatusSkipped, 0},
		{"an interrupted retry ends it", 3, false, []string{StatusFailed, StatusInterrupted}, 2, StatusInterrupted, 2},
		{"a cancelled run retries nothing", 2, true, []string{StatusFailed}, 1, StatusFailed, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			sr := runAttempts(ctx, c.retries, func(k int) ScenarioReport {
				if k != calls+1 || k > len(c.outcomes) {
					t.Fatalf("attempt %d after %d calls (outcomes %v)", k, calls, c.outcomes)
				}
				calls++
				if c.cancel {
					cancel()
				}
				r := ScenarioReport{ID: "s", Status: c.outcomes[k-1], DurationMs: 10,
					Operations: []OperationReport{{Index: 0, Op: "navigate", Status: StatusPassed}, {Index: 1, Op: "assert", Status: StatusSkipped}}}
				if r.Status == StatusFailed {
					r.Operations[1].Status = StatusFailed
					r.Operations[1].Error = &transport.OperationError{Code: transport.CodeAssertionFailed}
				}
				return r
			})
			if calls != c.calls || sr.Status != c.status || len(sr.Attempts) != c.attempts {
				t.Fatalf("%d calls, status %s, %d attempts; want %d, %s, %d", calls, sr.Status, len(sr.Attempts), c.calls, c.status, c.attempts)
			}
			if sr.DurationMs != int64(10*calls) {
				t.Errorf("duration %d ms, want all attempts' %d", sr.DurationMs, 10*calls)
			}
			for i, a := range sr.Attempts {
				if a.Attempt != i+1 || a.Status != c.outcomes[i] || a.DurationMs != 10 {
					t.Errorf("attempt %d = %+v", i, a)
				}
				if failed := a.Status == StatusFailed; failed != (a.Operation != nil) || failed && (a.Operation.Index != 1 || a.Operation.Error == nil) {
					t.Errorf("attempt %d: status %s, operation %+v", i, a.Status, a.Operation)
				}
			}
		})
	}
}

func TestNewSuiteRefusesRetriesOverTheBound(t *testing.T) {
	for _, n := range []int{-1, budgets.RunRetries + 1} {
		if _, err := NewSuite(nil, SuiteOptions{Retries: n}); err == nil || !strings.Contains(err.Error(), "expected 0 to 5") {
			t.Errorf("Retries %d: %v", n, err)
		}
	}
}

// warmingSite serves "/" titled "Warming up" until marker exists, then "Ready".
func warmingSite(t *testing.T, marker string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		title := "Ready"
		if _, err := os.Stat(marker); err != nil {
			title = "Warming up"
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>" + title + "</title><h1>" + title + "</h1>"))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSuiteRetriesAFlakyScenario: a scenario whose first attempt fails (the page is still
// warming up; its cleanup hook finishes the warm-up) runs again from the start — setup hook,
// a new browser session — passes, and is reported flaky with both attempts, each attempt's
// evidence and logs in a directory of its own; under --fail-fast the next scenario still runs.
func TestSuiteRetriesAFlakyScenario(t *testing.T) {
	dir := t.TempDir()
	marker, hookLog := filepath.Join(dir, "warm"), filepath.Join(dir, "setup.log")
	site := warmingSite(t, marker)
	flaky := load(t, map[string]any{"version": 1, "id": "flaky", "fixture": map[string]any{"baseUrl": site.URL},
		"hooks": map[string]any{
			"setup":   map[string]any{"command": "/bin/sh", "args": []string{"-c", "echo setup | tee -a " + hookLog}},
			"cleanup": map[string]any{"command": "/bin/sh", "args": []string{"-c", "touch " + marker}},
		},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}},
			map[string]any{"id": "ready", "op": "assert", "request": map[string]any{"kind": "title", "value": "Ready", "wait": "none"}},
		}})
	after := load(t, map[string]any{"version": 1, "id": "after", "fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}}}})
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	s, err := NewSuite([]*Loaded{flaky, after}, SuiteOptions{Jobs: 1, FailFast: true, Retries: 2, Out: out,
		Session: runtime.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep := s.Run(context.Background())

	if rep.Status != StatusPassed || len(rep.Scenarios) != 2 || rep.Scenarios[1].Status != StatusPassed {
		t.Fatalf("run %s; scenarios %+v", rep.Status, rep.Scenarios)
	}
	if c := rep.Count(); c.Flaky != 1 || c.Passed != 1 {
		t.Errorf("counts %+v", c)
	}
	sr := rep.Scenarios[0]
	if sr.Status != StatusFlaky || len(sr.Attempts) != 2 || sr.Operations[1].Status != StatusPassed {
		t.Fatalf("flaky scenario: status %s, %d attempts, operations %+v", sr.Status, len(sr.Attempts), sr.Operations)
	}
	a1, a2 := sr.Attempts[0], sr.Attempts[1]
	if a1.Status != StatusFailed || a1.Operation == nil || a1.Operation.ID != "ready" || a1.Operation.Error == nil ||
		a1.Operation.Error.Code != transport.CodeAssertionFailed || !strings.Contains(a1.Operation.Error.Message, "Warming up") {
		t.Fatalf("attempt 1 = %+v (operation %+v)", a1, a1.Operation)
	}
	if a2.Status != StatusPassed || a2.Operation != nil || a2.Error != nil {
		t.Fatalf("attempt 2 = %+v", a2)
	}
	if sr.DurationMs != a1.DurationMs+a2.DurationMs {
		t.Errorf("duration %d, attempts %d + %d", sr.DurationMs, a1.DurationMs, a2.DurationMs)
	}
	// Each attempt had the whole lifecycle of its own.
	for _, a := range sr.Attempts {
		var got []string
		for _, e := range a.Events {
			got = append(got, e.Kind+"."+e.Name+":"+e.Status)
		}
		if want := "hook.setup:ok runtime.open:ok runtime.close:ok hook.cleanup:ok"; strings.Join(got, " ") != want {
			t.Errorf("attempt %d events %v, want %s", a.Attempt, got, want)
		}
	}
	if data, _ := os.ReadFile(hookLog); string(data) != "setup\nsetup\n" {
		t.Errorf("setup hook ran %q", data)
	}
	// Each attempt's artifacts sit in their own directory and are on disk.
	inDir := func(what, path, runDir string) {
		if !strings.HasPrefix(path, "flaky/"+runDir+"/") {
			t.Errorf("%s at %s, want under flaky/%s/", what, path, runDir)
		} else if _, err := os.Stat(filepath.Join(out, "artifacts", path)); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	if len(a1.Operation.Evidence) == 0 {
		t.Fatalf("attempt 1 kept no evidence: %+v", a1.Operation.EvidenceUnavailable)
	}
	for _, m := range a1.Operation.Evidence {
		inDir("attempt 1 evidence "+m.Kind, m.Path, rep.RunID)
	}
	for k, a := range sr.Attempts {
		if len(a.Diagnostics) == 0 {
			t.Fatalf("attempt %d kept no setup log", k+1)
		}
		for _, m := range a.Diagnostics {
			inDir("attempt log", m.Path, AttemptRunDir(rep.RunID, k+1))
		}
	}
	if len(sr.Diagnostics) == 0 || sr.Diagnostics[0].Path != a2.Diagnostics[0].Path {
		t.Errorf("the scenario's diagnostics %+v are not its last attempt's", sr.Diagnostics)
	}
}
