package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// TestRunScenarioBudgetEndIsError: a scenario whose budget ends during an operation (a
// navigation to a page slower than the budget) is status error, as documented for a budget
// end, with a scenario-level timeout naming the budget and its value; the operation it cut
// short is failed. Exit 1, an ERROR line.
func TestRunScenarioBudgetEndIsError(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "slow.json", fmt.Sprintf(`{
  "version": 1, "id": "too-slow", "budgets": {"timeoutMs": 5000},
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/slow?ms=15000"}},
    {"id": "later", "op": "read"}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 1 || !strings.Contains(res.stdout, "ERROR too-slow") {
		t.Fatalf("exit %d, want 1 with an ERROR line\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	sc := r.Scenarios[0]
	if r.Status != "error" || sc.Status != "error" || sc.Operations[0].Status != "failed" || sc.Operations[1].Status != "skipped" {
		t.Fatalf("run %s, scenario %s, operations %+v", r.Status, sc.Status, sc.Operations)
	}
	const want = "the scenario budget (timeoutMs 5000) ended during operations[0] (navigate)"
	if e := sc.Error; e == nil || e.Code != "timeout" || e.Message != want {
		t.Fatalf("scenario error %+v, want timeout %q", e, want)
	}
}

// TestRunValueAssertionKeepsSecrets: through `fastbrowser run`, a value assertion on a field
// an {"env"} secret was typed into, and one on a password field, fail as refused
// (invalid_request at the target's path), and neither value appears anywhere in the output
// directory (report.json, junit.xml, report.html, evidence) or on stdout and stderr.
func TestRunValueAssertionKeepsSecrets(t *testing.T) {
	const secret = "tok-1a2b3c4d5e"
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	scenario := func(id, assert string) string {
		return writeScenario(t, dir, id+".json", fmt.Sprintf(`{
  "version": 1, "id": %q,
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/asserts"}},
    {"op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "ASSERT_TOKEN"}}},
    {"id": "peek", "op": "assert", "request": %s}
  ]}`, id, site.URL, site.URL+"/health", assert))
	}
	scenario("token", `{"kind": "value", "value": "guess", "target": {"role": "textbox", "name": "Token"}}`)
	scenario("password", `{"kind": "value", "value": "guess", "target": {"role": "textbox", "name": "Password"}, "not": true}`)
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"ASSERT_TOKEN": secret}, "run", "--out", out, dir)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	for _, sc := range r.Scenarios {
		e := sc.Operations[2].Error
		if sc.Status != "failed" || e == nil || e.Code != "invalid_request" || e.Path != "request.target" || !strings.Contains(e.Message, "is never read") {
			t.Errorf("%s: status %s, error %+v", sc.ID, sc.Status, e)
		}
	}
	for _, v := range []string{secret, fixture.AssertsPasswordValue} {
		if strings.Contains(res.stdout+res.stderr, v) {
			t.Errorf("the CLI output shows %q", v)
		}
	}
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, v := range []string{secret, fixture.AssertsPasswordValue} {
			if strings.Contains(string(data), v) {
				t.Errorf("%s holds %q", path, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
