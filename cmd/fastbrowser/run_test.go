package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

func readReport(t *testing.T, path string) scenario.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r scenario.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	return r
}

// quickstartEnv is the environment the quick start needs: the shop's password, which its
// sign-in types as a secret and its managed fixture gets (ci/quickstart exports a demo one).
var quickstartEnv = map[string]string{fixture.ShopPasswordEnv: "quickstart-test-PASSWORD"}

// quickstartPassed is the summary of a quick-start run with all five files passing.
const quickstartPassed = "5 passed, 0 failed"

// TestQuickstart is acceptance 1's first half in process: the quick-start scenarios (a
// sign-in with a secret from the environment, a form, a table, a popup, reads) pass against
// the embedded fixture started as a managed server, the report path is printed, and the
// password is nowhere in what the run wrote.
func TestQuickstart(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	res := runCLI(t, quickstartEnv, "run", "--out", out, "../../scenarios/quickstart")
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	reportPath := filepath.Join(out, "report.json")
	if !strings.Contains(res.stdout, "report: "+reportPath) || !strings.Contains(res.stdout, quickstartPassed) {
		t.Fatalf("summary missing:\n%s", res.stdout)
	}
	r := readReport(t, reportPath)
	if r.Version != 1 || r.Status != "passed" || len(r.Scenarios) != 5 || !strings.HasPrefix(r.Browser.Version, "Chrome/") || r.Browser.Attached {
		t.Fatalf("report %+v", r)
	}
	sweepForSecret(t, quickstartEnv[fixture.ShopPasswordEnv], out,
		map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)})
	for _, s := range r.Scenarios {
		if len(s.SHA256) != 64 || s.File == "" || len(s.Operations) == 0 {
			t.Errorf("scenario %s: %+v", s.ID, s)
		}
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o700 {
		t.Errorf("--out dir mode %v, want 0700", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(reportPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("report mode %v, want 0600", fi.Mode().Perm())
	}
}

// writeScenario writes a scenario against an external fixture (an httptest server).
func writeScenario(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAssertionFailure is acceptance 2: exit 1, the failing operation with its whole error,
// later operations skipped.
func TestAssertionFailure(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "fail.json", fmt.Sprintf(`{
  "version": 1, "id": "assert-fails",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/form"}},
    {"id": "wrong-title", "op": "assert", "request": {"kind": "title", "value": "Dashboard", "wait": "none"}},
    {"id": "later", "op": "read"},
    {"id": "later2", "op": "reload"}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "FAIL  assert-fails") || !strings.Contains(res.stdout, "assertion_failed") {
		t.Errorf("progress output:\n%s", res.stdout)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	if r.Status != "failed" || len(r.Scenarios) != 1 {
		t.Fatalf("report %+v", r)
	}
	ops := r.Scenarios[0].Operations
	if ops[0].Status != "passed" || ops[1].Status != "failed" || ops[2].Status != "skipped" || ops[3].Status != "skipped" {
		t.Fatalf("statuses %+v", ops)
	}
	e := ops[1].Error
	if e == nil || e.Code != "assertion_failed" || e.Phase != "verify" || e.Retry != "safe" || e.MutationState != "not_attempted" ||
		!strings.Contains(e.Message, `"Dashboard"`) || ops[1].Posture != "failed" {
		t.Fatalf("error %+v", e)
	}
}

// TestJSONSummary checks --json prints only the summary object.
func TestJSONSummary(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", fmt.Sprintf(`{"version":1,"id":"ok","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":"/"}},{"op":"assert","request":{"kind":"titleContains","value":"Fixture"}}]}`, site.URL))
	res := runCLI(t, nil, "run", "--json", "--out", filepath.Join(dir, "out"), f)
	var sum struct {
		Version int            `json:"version"`
		Status  string         `json:"status"`
		Counts  map[string]int `json:"counts"`
		Report  string         `json:"report"`
	}
	if res.code != 0 || json.Unmarshal([]byte(res.stdout), &sum) != nil || sum.Status != "passed" || sum.Counts["passed"] != 1 || sum.Version != 1 {
		t.Fatalf("exit %d stdout %q stderr %q", res.code, res.stdout, res.stderr)
	}
}

// TestInvalidInputRunsNothing is acceptance 3: exit 2, a message naming the JSON path, and
// neither the browser nor the managed server was started (both are marker-writing scripts).
func TestInvalidInputRunsNothing(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	fake := filepath.Join(dir, "fake.sh")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho started >> "+marker+"\nsleep 5\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	valid := fmt.Sprintf(`{
  "version": 1, "id": "x",
  "fixture": {"baseUrl": "http://127.0.0.1:4399", "server": {"mode": "managed", "start": {"command": %q},
               "readiness": {"url": "http://127.0.0.1:4399/health"}}},
  "budgets": {"timeoutMs": 60000},
  "operations": [{"op": "navigate", "request": {"url": "/"}}]
}`, fake)
	cases := []struct{ name, from, to, path string }{
		{"unknown field", `"id": "x",`, `"id": "x", "retries": 3,`, "retries"},
		{"wrong type", `"timeoutMs": 60000`, `"timeoutMs": true`, "budgets.timeoutMs"},
		{"duplicate key", `"id": "x",`, `"id": "x", "id": "y",`, "(root)"},
		{"missing required", `"operations": [{"op": "navigate", "request": {"url": "/"}}]`, `"ops": []`, "ops"},
		{"missing operations", `,
  "operations": [{"op": "navigate", "request": {"url": "/"}}]`, ``, "(root)"},
		{"version 2", `"version": 1`, `"version": 2`, "version"},
		{"timeout over ceiling", `"timeoutMs": 60000`, `"timeoutMs": 500000`, "budgets.timeoutMs"},
		{"nested path", `"url": "/"`, `"url": ["/"]`, "operations[0].request.url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(valid, c.from) {
				t.Fatalf("bad case: %q", c.from)
			}
			f := writeScenario(t, t.TempDir(), "bad.json", strings.Replace(valid, c.from, c.to, 1))
			for _, cmd := range [][]string{{"validate", f}, {"run", "--browser", fake, "--out", filepath.Join(dir, "out"), f}} {
				res := runCLI(t, nil, cmd...)
				if res.code != 2 {
					t.Fatalf("%s: exit %d, want 2\n%s%s", cmd[0], res.code, res.stdout, res.stderr)
				}
				if !strings.Contains(res.stderr, "bad.json: "+c.path) {
					t.Fatalf("%s: stderr does not name %q:\n%s", cmd[0], c.path, res.stderr)
				}
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a browser or server was started for invalid input")
	}
	// The valid file, validated, names nothing and exits 0.
	f := writeScenario(t, dir, "good.json", valid)
	if res := runCLI(t, nil, "validate", f); res.code != 0 || !strings.Contains(res.stdout, "ok ") {
		t.Fatalf("valid file: %+v", res)
	}
}

// TestReadinessFailureExitsOne: a fixture that never becomes ready makes the run exit 1.
func TestReadinessFailureExitsOne(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "down.json", `{"version":1,"id":"down",
  "fixture":{"baseUrl":"http://127.0.0.1:9","server":{"mode":"external","readiness":{"url":"http://127.0.0.1:9/health","timeoutMs":500}}},
  "operations":[{"op":"read"}]}`)
	res := runCLI(t, nil, "run", "--out", filepath.Join(dir, "out"), f)
	if res.code != 1 || !strings.Contains(res.stdout, "fixture_not_ready") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"run"}, {"run", "/nonexistent.json"}, {"run", "--no-such-flag", "x.json"}, {"validate"},
		{"serve", "--webrtc", "udp"}, {"worker", "--cdp-url", "http://127.0.0.1:1", "--webrtc", "udp"}} {
		if res := runCLI(t, nil, args...); res.code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, res.code, res.stderr)
		}
	}
	if res := runCLI(t, nil, "version"); res.code != 0 || !strings.Contains(res.stdout, "protocol v1") {
		t.Errorf("version: %+v", res)
	}
}

// TestAttachDoesNotOwnTheBrowser runs against an existing browser by --cdp-url, in both
// accepted forms, and checks the report says attached and the browser outlives the run.
func TestAttachDoesNotOwnTheBrowser(t *testing.T) {
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "attach.json", fmt.Sprintf(`{"version":1,"id":"attach","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":"/about"}},{"op":"assert","request":{"kind":"title","value":"About the fixture"}}]}`, site.URL))
	for _, u := range []string{b.WebSocketURL(), b.HTTPURL()} {
		out := filepath.Join(dir, "out")
		res := runCLI(t, nil, "run", "--cdp-url", u, "--out", out, f)
		if res.code != 0 {
			t.Fatalf("--cdp-url %s: exit %d\n%s%s", u, res.code, res.stdout, res.stderr)
		}
		r := readReport(t, filepath.Join(out, "report.json"))
		if !r.Browser.Attached || !strings.HasPrefix(r.Browser.Version, "Chrome/") {
			t.Fatalf("browser %+v", r.Browser)
		}
		if !runtimetest.PidAlive(b.Pid()) {
			t.Fatal("the attached browser was stopped by a run that does not own it")
		}
	}
	for _, bad := range []string{"ftp://nowhere", "ws://127.0.0.1:1/devtools/page/x", "not a url"} {
		res := runCLI(t, nil, "run", "--cdp-url", bad, "--out", filepath.Join(dir, "out"), f)
		if res.code != 2 || !strings.Contains(res.stderr, "--cdp-url") {
			t.Fatalf("bad --cdp-url %q: exit %d\n%s%s", bad, res.code, res.stdout, res.stderr)
		}
	}
	// A well-formed endpoint where no browser listens: the scenario errors with launch_failed.
	res := runCLI(t, nil, "run", "--cdp-url", "http://127.0.0.1:9", "--out", filepath.Join(dir, "out"), f)
	if res.code != 1 || !strings.Contains(res.stdout, "launch_failed") {
		t.Fatalf("unreachable --cdp-url: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestExamples runs scenarios/examples' two seed files: seed 002's popup example and the
// step example (acceptance 1 of the page model), each against the fixture as a managed
// server. The shop suite in scenarios/examples/shop runs in ci/test, with the binary.
func TestExamples(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	res := runCLI(t, nil, "run", "--out", out,
		"../../scenarios/examples/popup-check.json", "../../scenarios/examples/step-continue.json")
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	var popup scenario.ScenarioReport
	for _, s := range r.Scenarios {
		if s.ID == "popup-check" {
			popup = s
		}
	}
	byID := map[string]json.RawMessage{}
	for _, op := range popup.Operations {
		byID[op.ID] = op.Result
	}
	var sel struct{ SelectedTab string }
	var pop struct {
		Popup, Opener string
		AutoSwitched  bool
	}
	json.Unmarshal(byID["selected"], &sel)
	json.Unmarshal(byID["popup"], &pop)
	if sel.SelectedTab != "t1" || pop.Opener != "t1" || pop.Popup == "" || pop.Popup == "t1" || pop.AutoSwitched {
		t.Fatalf("tab references did not resolve as the seed says: selected %s, popup %s", byID["selected"], byID["popup"])
	}
}

// TestSchemaCommand: `fastbrowser schema` prints the embedded schema the scenario tests
// validate every shipped file against.
func TestSchemaCommand(t *testing.T) {
	res := runCLI(t, nil, "schema")
	if res.code != 0 || res.stdout != string(scenario.SchemaJSON) {
		t.Fatalf("exit %d, %d bytes (want %d)", res.code, len(res.stdout), len(scenario.SchemaJSON))
	}
}

// TestCDPURLAnyWebsocketPath: --cdp-url takes a browser websocket under any path (Selenium
// Grid 4's /session/ID/se/cdp): the run starts and its scenario meets the endpoint (here
// nothing listens: an error, exit 1), where a websocket outside /devtools/browser/ was a
// usage error (exit 2). A URL that is no DevTools endpoint at all still is.
func TestCDPURLAnyWebsocketPath(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "grid.json", fmt.Sprintf(`{"version":1,"id":"grid","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":"/about"}}]}`, site.URL))
	res := runCLI(t, nil, "run", "--cdp-url", "ws://127.0.0.1:1/session/abc/se/cdp", "--out", filepath.Join(dir, "out"), f)
	if res.code != 1 || !strings.Contains(res.stdout, "ERROR") {
		t.Fatalf("a grid websocket URL: exit %d, want 1 with the scenario in error\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, nil, "run", "--cdp-url", "ftp://127.0.0.1:1/", "--out", filepath.Join(dir, "out2"), f); res.code != 2 {
		t.Fatalf("ftp --cdp-url: exit %d, want 2 (%s)", res.code, res.stderr)
	}
}
