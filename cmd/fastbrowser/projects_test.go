package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
)

// projectsSuite copies testdata/projects (a run config with projects v1 and v2, and one
// scenario that takes its field, button and expected text from variables) to a temporary
// directory, pointed at site instead of the default fixture address, and returns it.
func projectsSuite(t *testing.T, site string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{scenario.ConfigName, "signup.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "projects", name))
		if err != nil {
			t.Fatal(err)
		}
		body := strings.ReplaceAll(string(data), "http://127.0.0.1:4310", site)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProjectsOneSuiteTwoBuilds is issue 26's projects acceptance in real Chromium: one
// scenario file passes against two builds of a sign-up form whose field, button and result
// differ, once per project, reported as "v1 › signup" and "v2 › signup" on the console, in
// report.json (project, variables), junit.xml and report.html; --project v2 runs only v2;
// --var wins over the project (both fail, and their evidence lands in directories of their
// own), and replay of "v2 › signup" reproduces its failure; an unknown --project is a usage error naming the projects; and without the
// project's variables the file is refused at load naming the variable and its path.
func TestProjectsOneSuiteTwoBuilds(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := projectsSuite(t, site.URL)
	outs := t.TempDir() // outside the suite: a run of dir would read its report.json as a scenario
	out := filepath.Join(outs, "out")

	res := runCLI(t, nil, "run", "--jobs", "1", "--out", out, dir)
	if res.code != 0 || !strings.Contains(res.stdout, "2 passed, 0 failed") {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, line := range []string{"PASS  v1 › signup (", "PASS  v2 › signup ("} {
		if !strings.Contains(res.stdout, line) {
			t.Errorf("console lacks %q:\n%s", line, res.stdout)
		}
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	if len(r.Scenarios) != 2 {
		t.Fatalf("%d scenarios", len(r.Scenarios))
	}
	for i, want := range []struct{ project, field string }{{"v1", "Email"}, {"v2", "E-mail address"}} {
		s := r.Scenarios[i]
		if s.ID != "signup" || s.Project != want.project || s.Status != scenario.StatusPassed ||
			s.Variables["EMAIL_FIELD"] != want.field || s.Variables["EMAIL"] != "ada@example.com" {
			t.Errorf("scenario %d: id %q project %q status %s variables %v", i, s.ID, s.Project, s.Status, s.Variables)
		}
		if got, wantURL := s.Operations[0].Target, site.URL+"/projects/"+want.project+"/signup"; got != wantURL {
			t.Errorf("%s navigated to %q, want %q (the project's baseUrl)", want.project, got, wantURL)
		}
	}
	junitXML, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := junittest.Cases(junitXML)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"v1 › signup", "v2 › signup"}) {
		t.Errorf("junit testcases %q", names)
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"v1 › signup", "v2 › signup"} {
		if !strings.Contains(string(page), title) {
			t.Errorf("report.html lacks %q", title)
		}
	}

	res = runCLI(t, nil, "run", "--project", "v2", "--out", filepath.Join(outs, "only-v2"), dir)
	if res.code != 0 || !strings.Contains(res.stdout, "1 passed, 0 failed") || strings.Contains(res.stdout, "v1 ›") {
		t.Fatalf("--project v2: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if r := readReport(t, filepath.Join(outs, "only-v2", "report.json")); len(r.Scenarios) != 1 || r.Scenarios[0].Project != "v2" {
		t.Errorf("--project v2 ran %+v", r.Scenarios)
	}

	// --var over both projects' WELCOME: both fail the assertion; one scenario id in two
	// projects keeps two sets of evidence.
	failOut := filepath.Join(outs, "fail")
	res = runCLI(t, nil, "run", "--jobs", "1", "--var", "WELCOME=Nobody home", "--out", failOut, dir)
	if res.code != 1 || !strings.Contains(res.stdout, "0 passed, 2 failed") || !strings.Contains(res.stdout, "FAIL  v2 › signup") {
		t.Fatalf("--var: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	paths := map[string]bool{}
	for _, s := range readReport(t, filepath.Join(failOut, "report.json")).Scenarios {
		ev := s.Operations[3].Evidence
		if s.Variables["WELCOME"] != "Nobody home" || len(ev) == 0 {
			t.Fatalf("%s: variables %v, evidence %v", s.Title(), s.Variables, ev)
		}
		for _, m := range ev {
			if !strings.Contains(m.Path, "."+s.Project+"/") || paths[m.Path] {
				t.Errorf("%s: evidence path %s is not its project's own", s.Title(), m.Path)
			}
			paths[m.Path] = true
			if _, err := os.Stat(filepath.Join(failOut, "artifacts", m.Path)); err != nil {
				t.Errorf("%s: %v", s.Title(), err)
			}
		}
	}

	// replay picks a scenario by "project › id" and runs it under that project with the
	// variable values the report recorded, so the failure comes back.
	res = runCLI(t, nil, "replay", "--scenario", "v2 › signup", "--out", filepath.Join(outs, "replay"), filepath.Join(failOut, "report.json"))
	if res.code != 1 || !strings.Contains(res.stdout, "reproduced: true") || !strings.Contains(res.stdout, "FAIL  v2 › signup") {
		t.Errorf("replay: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	res = runCLI(t, nil, "run", "--project", "v3", "--out", filepath.Join(outs, "none"), dir)
	if res.code != 2 || !strings.Contains(res.stderr, `--project "v3": no such project; the run config defines v1, v2`) {
		t.Errorf("--project v3: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "validate", dir)
	if res.code != 0 || !strings.Contains(res.stdout, "(project v1, signup, 4 operations)") || !strings.Contains(res.stdout, "(project v2, signup, 4 operations)") {
		t.Errorf("validate: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	// The same file under a config without the projects: its variables are unknown.
	bare := filepath.Join(outs, "bare.json")
	if err := os.WriteFile(bare, []byte(`{"version": 1, "fixture": {"baseUrl": "`+site.URL+`/projects/v1/"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	res = runCLI(t, nil, "run", "--config", bare, "--out", filepath.Join(outs, "bare"), filepath.Join(dir, "signup.json"))
	if res.code != 2 || !strings.Contains(res.stderr, `operations[1].request.target.name: unknown variable "EMAIL_FIELD"; define it in variables, a project or --var`) {
		t.Errorf("without projects: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
