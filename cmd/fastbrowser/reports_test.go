package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
)

// reportsScenario is a described scenario whose setup hook prints two lines, that navigates
// (200), types a secret from the environment, navigates to a 503 page and fails a title
// assertion there.
func reportsScenario(site string) string {
	return fmt.Sprintf(`{
  "version": 1, "id": "described",
  "description": "Signs in with the portal token & checks the outage page",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "hooks": {"setup": {"command": "/bin/sh", "args": ["-c", "echo setup says hello; echo seeded 3 users"]}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "token", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "PORTAL_TOKEN"}}},
    {"id": "outage", "op": "navigate", "request": {"url": "/status/503"}},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": "Dashboard", "wait": "none"}}
  ]}`, site, site+"/health")
}

// TestReportsShowWhatRan is issue 11 item 8 end to end in real Chromium, run from the
// directory that holds the scenario (file and --out relative): the description is in
// report.json, report.html and junit.xml (<system-out>); each operation's target and value
// are in report.json and the HTML table, the typed secret only as "[secret] (env NAME)";
// the navigates' HTTP statuses (200, 503) are there; the failed assertion shows what it
// expected on the console, in `report` and on the page; the setup hook's log is shown by
// `report` and on the page, not on the console (it succeeded); junit.xml's testcase has file="reports.json";
// `report` prints evidence and log paths that exist from the current directory; and the
// secret is in no file of the out dir nor on stdout or stderr.
func TestReportsShowWhatRan(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	t.Chdir(dir)
	writeScenario(t, dir, "reports.json", reportsScenario(site.URL))
	env := map[string]string{"PORTAL_TOKEN": leakSecret}
	res := runCLI(t, env, "run", "--out", "out", "reports.json")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}

	r := readReport(t, filepath.Join("out", "report.json"))
	s := r.Scenarios[0]
	// The fields this item added, read as JSON so the test also builds (and fails) without them.
	var added struct {
		Scenarios []struct {
			Description string `json:"description"`
			Operations  []struct {
				Target     string `json:"target"`
				Value      string `json:"value"`
				HTTPStatus int    `json:"httpStatus"`
			} `json:"operations"`
		} `json:"scenarios"`
	}
	readJSON(t, filepath.Join("out", "report.json"), &added)
	if d := added.Scenarios[0].Description; d != "Signs in with the portal token & checks the outage page" {
		t.Errorf("report.json description %q", d)
	}
	want := []struct {
		target, value string
		http          int
	}{
		{site.URL + "/echo", "", 200},
		{`textbox ~"Token"`, "[secret] (env PORTAL_TOKEN)", 0},
		{site.URL + "/status/503", "", 503},
		{"", `titleContains "Dashboard"`, 0},
	}
	for i, w := range want {
		op := added.Scenarios[0].Operations[i]
		if op.Target != w.target || op.Value != w.value || op.HTTPStatus != w.http {
			t.Errorf("operations[%d]: target %q value %q httpStatus %d; want %q %q %d", i, op.Target, op.Value, op.HTTPStatus, w.target, w.value, w.http)
		}
	}
	if s.Operations[3].Error == nil || s.Operations[3].Error.Code != "assertion_failed" {
		t.Fatalf("the assertion did not fail: %+v", s.Operations[3])
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].Kind != "log" {
		t.Fatalf("diagnostics %+v, want the setup hook's log", s.Diagnostics)
	}

	// The console failure block: the error and what was expected; not the hook's output,
	// which succeeded (--server-log on-failure: it is on the page and in `report`).
	for _, w := range []string{
		"operations[3] title (assert): assertion_failed",
	} {
		if !strings.Contains(res.stdout, w) {
			t.Errorf("console lacks %q:\n%s", w, res.stdout)
		}
	}
	if strings.Contains(res.stdout, "setup says hello") {
		t.Errorf("console shows the output of a hook that succeeded:\n%s", res.stdout)
	}

	if !expectsDashboard(res.stdout) {
		t.Errorf("console lacks an Expected line naming \"Dashboard\":\n%s", res.stdout)
	}

	page, err := os.ReadFile(filepath.Join("out", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	for _, w := range []string{
		`<p class="desc">Signs in with the portal token & checks the outage page</p>`,
		`<td class="mono">textbox ~"Token"</td>`, `<td class="mono">[secret] (env PORTAL_TOKEN)</td>`,
		`<td class="mono">HTTP 200</td>`, `<td class="mono">HTTP 503</td>`,
		`<pre class="exprec">Expected: `,
		"<h3>setup hook output</h3>", "setup says hello\nseeded 3 users",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("report.html lacks %q", w)
		}
	}

	data, err := os.ReadFile(filepath.Join("out", "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			File      string `xml:"file,attr"`
			SystemOut string `xml:"system-out"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Cases) != 1 {
		t.Fatalf("junit.xml: %v %+v", err, doc)
	}
	if err := junittest.Check(data); err != nil {
		t.Fatalf("junit.xml breaks the schema: %v", err)
	}
	if c := doc.Cases[0]; c.File != "reports.json" || !strings.HasPrefix(c.SystemOut, "description: Signs in with the portal token & checks the outage page\n") {
		t.Errorf("junit testcase file %q, system-out %q", c.File, c.SystemOut)
	}

	// `report` from here: every evidence and log path it prints opens as printed.
	rep := runCLI(t, nil, "report", filepath.Join("out", "report.json"))
	if rep.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", rep.code, rep.stdout, rep.stderr)
	}
	paths := 0
	for _, line := range strings.Split(rep.stdout, "\n") {
		var p string
		if _, after, ok := strings.Cut(line, "evidence "); ok {
			_, p, _ = strings.Cut(after, ": ")
		} else if _, after, ok := strings.Cut(line, "output (last lines of "); ok {
			p = strings.TrimSuffix(after, "):")
		}
		if p == "" {
			continue
		}
		paths++
		if !strings.HasPrefix(p, filepath.Join("out", "artifacts")+"/") {
			t.Errorf("path %q is not under out/artifacts", p)
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("printed path %q does not open from the current directory: %v", p, err)
		}
	}
	if paths < 2 {
		t.Fatalf("report printed %d paths, want the evidence and the log:\n%s", paths, rep.stdout)
	}
	if !expectsDashboard(rep.stdout) {
		t.Errorf("report output lacks an Expected line naming \"Dashboard\":\n%s", rep.stdout)
	}
	for _, w := range []string{"Signs in with the portal token", "| seeded 3 users"} {
		if !strings.Contains(rep.stdout, w) {
			t.Errorf("report output lacks %q:\n%s", w, rep.stdout)
		}
	}

	if n := sweepForSecret(t, leakSecret, "out", map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr),
		"report stdout": []byte(rep.stdout)}); n < 4 {
		t.Fatalf("swept %d files, want the three reports and the artifacts", n)
	}
}

// TestRunJSONListsFailingScenarios is issue 11 item 7's --json object: the ids of the
// failed, errored and flaky scenarios, and the error that ended each, beside the counts.
func TestRunJSONListsFailingScenarios(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	ext := fmt.Sprintf(`"fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}}`, site.URL, site.URL+"/health")
	pass := writeScenario(t, dir, "a.json", `{"version": 1, "id": "passes", `+ext+`, "operations": [{"op": "navigate", "request": {"url": "/echo"}}]}`)
	fail := writeScenario(t, dir, "b.json", `{"version": 1, "id": "fails", `+ext+`, "operations": [{"op": "navigate", "request": {"url": "/echo"}},
	  {"op": "assert", "request": {"kind": "titleContains", "value": "Dashboard", "wait": "none"}}]}`)
	broken := writeScenario(t, dir, "c.json", `{"version": 1, "id": "errors", `+ext+`,
	  "hooks": {"setup": {"command": "/bin/sh", "args": ["-c", "exit 3"]}}, "operations": [{"op": "navigate", "request": {"url": "/echo"}}]}`)
	res := runCLI(t, nil, "run", "--json", "--out", filepath.Join(dir, "out"), pass, fail, broken)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	var got struct {
		Failed  []string `json:"failed"`
		Errored []string `json:"errored"`
		Flaky   []string `json:"flaky"`
		Errors  []struct {
			Scenario, Status, Code, Message string
			Operation                       *int
		} `json:"errors"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &got); err != nil || strings.Count(strings.TrimSpace(res.stdout), "\n") != 0 {
		t.Fatalf("not one JSON object: %v\n%s", err, res.stdout)
	}
	if fmt.Sprint(got.Failed) != "[fails]" || fmt.Sprint(got.Errored) != "[errors]" || got.Flaky == nil || len(got.Flaky) != 0 {
		t.Fatalf("failed %v errored %v flaky %v\n%s", got.Failed, got.Errored, got.Flaky, res.stdout)
	}
	if len(got.Errors) != 2 || got.Errors[0].Scenario != "fails" || got.Errors[0].Code != "assertion_failed" ||
		got.Errors[0].Operation == nil || *got.Errors[0].Operation != 1 || got.Errors[1].Scenario != "errors" ||
		got.Errors[1].Status != "error" || got.Errors[1].Operation != nil || got.Errors[1].Code == "" {
		t.Fatalf("errors %+v\n%s", got.Errors, res.stdout)
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// requireTreeModes stats every directory and file under root (root included) and fails t
// for each whose mode is not dirMode or fileMode. It returns how many files it saw.
func requireTreeModes(t *testing.T, root string, dirMode, fileMode os.FileMode) int {
	t.Helper()
	files := 0
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := fileMode
		if fi.IsDir() {
			want = dirMode
		} else {
			files++
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestArtifactsMode: a failing run (reports, evidence and a hook log) writes everything in
// its out dir 0700/0600 by default and 0750/0640 with --artifacts-mode group, in an existing
// out dir of that mode too; replay takes the flag too; any other mode is refused with exit 2.
func TestArtifactsMode(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "reports.json", reportsScenario(site.URL))
	env := map[string]string{"PORTAL_TOKEN": leakSecret}
	for _, c := range []struct {
		args          []string
		dirMode, file os.FileMode
	}{
		{nil, 0o700, 0o600},
		{[]string{"--artifacts-mode", "group"}, 0o750, 0o640},
	} {
		out := filepath.Join(dir, fmt.Sprintf("out-%o", c.dirMode))
		mkdirMode(t, out, c.dirMode) // an existing dir already of the mode is used as it is
		res := runCLI(t, env, append(append([]string{"run", "--out", out}, c.args...), f)...)
		if res.code != 1 {
			t.Fatalf("%v: exit %d\n%s%s", c.args, res.code, res.stdout, res.stderr)
		}
		// report.json, junit.xml, report.html, four evidence files and the hook log.
		if n := requireTreeModes(t, out, c.dirMode, c.file); n < 8 {
			t.Errorf("%v: %d files under %s, want the reports, the evidence and the log", c.args, n, out)
		}
		replayOut := filepath.Join(dir, fmt.Sprintf("replay-%o", c.dirMode))
		res = runCLI(t, env, append(append([]string{"replay", "--out", replayOut}, c.args...), filepath.Join(out, "report.json"))...)
		if res.code != 1 {
			t.Fatalf("replay %v: exit %d\n%s%s", c.args, res.code, res.stdout, res.stderr)
		}
		requireTreeModes(t, replayOut, c.dirMode, c.file)
	}
	res := runCLI(t, env, "run", "--artifacts-mode", "world", "--out", filepath.Join(dir, "never"), f)
	if res.code != 2 || !strings.Contains(res.stderr, `--artifacts-mode: artifacts mode "world": expected "private" or "group"`) {
		t.Fatalf("bad mode: exit %d, stderr %q", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "never")); !os.IsNotExist(err) {
		t.Fatalf("a refused mode created the out dir: %v", err)
	}
}

// TestSkipReason: --fail-fast skips the scenarios after a failure, and says so on the
// console, in report.json (skipReason), junit.xml (<skipped message>, and file="…") and
// report.html.
func TestSkipReason(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := writeSuite(t, site.URL, 3, 1)
	out := filepath.Join(t.TempDir(), "out")
	res := runCLI(t, nil, "run", "--jobs", "1", "--fail-fast", "--out", out, dir)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	const reason = "not started: --fail-fast stopped the run after scenario s01 did not pass"
	if !strings.Contains(res.stdout, "SKIP  s02 (0 ms)\n      "+reason+"\n") {
		t.Errorf("the console does not say why s02 was skipped:\n%s", res.stdout)
	}
	var rep struct {
		Scenarios []struct {
			ID, Status, SkipReason string
		} `json:"scenarios"`
	}
	readJSON(t, filepath.Join(out, "report.json"), &rep)
	for _, s := range rep.Scenarios[1:] {
		if s.Status != "skipped" || s.SkipReason != reason {
			t.Errorf("%s: status %s, skipReason %q", s.ID, s.Status, s.SkipReason)
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := junittest.Check(data); err != nil {
		t.Fatalf("junit.xml breaks the schema: %v", err)
	}
	var doc struct {
		Cases []struct {
			Name    string `xml:"name,attr"`
			File    string `xml:"file,attr"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testsuite>testcase"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Cases) != 3 {
		t.Fatalf("junit.xml: %v %+v", err, doc)
	}
	for i, c := range doc.Cases {
		// The files are outside the working directory: named as given.
		if want := filepath.ToSlash(filepath.Join(dir, fmt.Sprintf("s%02d.json", i+1))); c.File != want {
			t.Errorf("%s: file %q, want %q", c.Name, c.File, want)
		}
		if i > 0 && (c.Skipped == nil || c.Skipped.Message != reason) {
			t.Errorf("%s: skipped %+v, want message %q", c.Name, c.Skipped, reason)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.UnescapeString(string(page)), reason) {
		t.Error("report.html does not say why the scenarios were skipped")
	}
}

// expectsDashboard says whether out has an "Expected: " line naming "Dashboard": the
// assertion's own expected value (`"Dashboard"`), or, from a runtime that does not give
// one, the file's kind and value (`titleContains "Dashboard"`).
func expectsDashboard(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "Expected: ") && strings.Contains(line, `"Dashboard"`) {
			return true
		}
	}
	return false
}
