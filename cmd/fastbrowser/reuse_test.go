package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// loginFragment signs in on the fixture's /login with a password from the environment.
const loginFragment = `{"version": 1, "fragment": "login", "description": "sign in as ada",
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/login"}},
    {"id": "user", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Username"}, "text": "ada"}},
    {"id": "pass", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Password"}, "text": {"env": "FB_REUSE_PASSWORD"}}},
    {"id": "submit", "op": "act", "request": {"action": "click", "target": {"role": "button", "name": "Log in"}}},
    {"id": "welcome", "op": "assert", "request": {"kind": "textContains", "value": "Welcome, ada"}}
  ]}`

const reusePassword = "fragment-pw-s3cret"

// TestRunIncludesFragment is issue 11 item 3's include end to end: `run DIR` skips the
// fragment file, the scenario includes it twice (once under its name, once under the entry's
// id) and passes against Chromium; the report lists the operations by their prefixed ids and
// the fragment with its digest; the secret typed in the fragment is masked everywhere.
func TestRunIncludesFragment(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	runtimetest.WriteFiles(t, dir, map[string]string{
		"suite/fragments/login.json": loginFragment,
		"suite/signed-in.json": fmt.Sprintf(`{"version": 1, "id": "signed-in",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"include": "fragments/login.json"},
    {"id": "again", "include": "fragments/login.json"},
    {"id": "title", "op": "assert", "request": {"kind": "title", "value": "Welcome"}}
  ]}`, site.URL, site.URL+"/health"),
	})
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"FB_REUSE_PASSWORD": reusePassword}, "run", "--out", out, filepath.Join(dir, "suite"))
	if res.code != 0 || !strings.Contains(res.stdout, "1 passed") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	s := r.Scenarios[0]
	var ids []string
	for _, op := range s.Operations {
		ids = append(ids, op.ID)
	}
	if got, want := strings.Join(ids, " "), "login.open login.user login.pass login.submit login.welcome again.open again.user again.pass again.submit again.welcome title"; got != want {
		t.Errorf("operation ids\n got %s\nwant %s", got, want)
	}
	if len(s.Fragments) != 2 || !strings.HasSuffix(s.Fragments[0].File, filepath.Join("suite", "fragments", "login.json")) || len(s.Fragments[0].SHA256) != 64 {
		t.Errorf("fragments %+v", s.Fragments)
	}
	for _, name := range []string{"report.json", "report.html", "junit.xml"} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), reusePassword) {
			t.Errorf("%s holds the fragment's secret", name)
		}
		if name == "report.html" && !strings.Contains(string(data), "again.submit") {
			t.Errorf("report.html does not show the prefixed id again.submit")
		}
	}
	if strings.Contains(res.stdout+res.stderr, reusePassword) {
		t.Error("output holds the fragment's secret")
	}

	// The report's sha256 covers the fragments: replay refuses the scenario once a fragment
	// it includes was edited.
	runtimetest.WriteFiles(t, dir, map[string]string{"suite/fragments/login.json": strings.Replace(loginFragment, "sign in as ada", "sign in as ada.", 1)})
	res = runCLI(t, map[string]string{"FB_REUSE_PASSWORD": reusePassword}, "replay", "--scenario", "signed-in", "--out", filepath.Join(dir, "replay"), filepath.Join(out, "report.json"))
	if res.code != 2 || !strings.Contains(res.stderr, "changed since the run") {
		t.Fatalf("replay after a fragment edit: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	// Unset, the fragment's secret is refused at load, at the include entry, naming the field.
	res = runCLI(t, map[string]string{"FB_REUSE_PASSWORD": ""}, "run", "--json", "--out", out, filepath.Join(dir, "suite"))
	if res.code != 2 || !strings.Contains(res.stdout, `"path":"operations[0].include"`) ||
		!strings.Contains(res.stdout, "login.json: operations[2].request.text.env: the value of FB_REUSE_PASSWORD") {
		t.Fatalf("unset fragment secret: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestRunConfigDiscovery is the run config end to end: fastbrowser.json at the repository
// root gives two scenarios their fixture (relative URLs resolve against it) and --jobs; the
// header names it; --jobs on the command line wins over it; --json carries it; --config
// picks another; a config above the repository root is not used.
func TestRunConfigDiscovery(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	scen := func(id string) string {
		return `{"version": 1, "id": "` + id + `", "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"op": "assert", "request": {"kind": "title", "value": "Sign in"}}]}`
	}
	cfg := fmt.Sprintf(`{"version": 1, "jobs": 1, "retries": 0,
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}}}`, site.URL, site.URL+"/health")
	runtimetest.WriteFiles(t, root, map[string]string{
		"fastbrowser.json":         `{"version": 1, "jobs": 2}`, // above .git: never found
		"repo/.git/HEAD":           "ref: refs/heads/main\n",
		"repo/fastbrowser.json":    cfg,
		"repo/e2e/suite/a.json":    scen("cfg-a"),
		"repo/e2e/suite/b.json":    scen("cfg-b"),
		"repo/other/two-jobs.json": strings.Replace(cfg, `"jobs": 1`, `"jobs": 2`, 1),
		// A subdirectory's own config, whose scenario sorts first: the run of the suite
		// directory still uses the config found from that directory.
		"repo/e2e/suite/0sub/fastbrowser.json": strings.Replace(cfg, `"jobs": 1`, `"jobs": 2`, 1),
		"repo/e2e/suite/0sub/z.json":           scen("cfg-z"),
	})
	out := filepath.Join(root, "out")
	suite := filepath.Join(repo, "e2e", "suite")
	res := runCLI(t, nil, "run", "--out", out, suite)
	if res.code != 0 || !strings.Contains(res.stdout, "config: "+filepath.Join(repo, "fastbrowser.json")+"\n") ||
		!strings.Contains(res.stdout, "running 3 scenarios, up to 1 at a time") {
		t.Fatalf("discovered config: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--out", out, suite, "--jobs", "2")
	if res.code != 0 || !strings.Contains(res.stdout, "up to 2 at a time") {
		t.Fatalf("--jobs must win over the config: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	other := filepath.Join(repo, "other", "two-jobs.json")
	res = runCLI(t, nil, "run", "--out", out, "--config", other, suite)
	if res.code != 0 || !strings.Contains(res.stdout, "config: "+other+"\n") || !strings.Contains(res.stdout, "up to 2 at a time") {
		t.Fatalf("--config: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--json", "--out", out, filepath.Join(suite, "a.json"))
	var sum struct{ Status, Config string }
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil || res.code != 0 || sum.Config != filepath.Join(repo, "fastbrowser.json") {
		t.Fatalf("--json: exit %d %v\n%s%s", res.code, err, res.stdout, res.stderr)
	}
}

// TestConfigRefusedExit2: an invalid config is invalid input for run (also with --json) and
// validate, named by its path and the field's; validate prints the config it used.
func TestConfigRefusedExit2(t *testing.T) {
	dir := t.TempDir()
	runtimetest.WriteFiles(t, dir, map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		"fastbrowser.json":    `{"version": 1, "retries": 9}`,
		"good.json":           `{"version": 1, "id": "v", "allowedOrigins": ["*"], "operations": [{"op": "read"}]}`,
		"ok/fastbrowser.json": `{"version": 1, "fixture": {"baseUrl": "http://127.0.0.1:1"}}`,
		"ok/rel.json":         `{"version": 1, "id": "rel", "operations": [{"op": "navigate", "request": {"url": "/form"}}]}`,
	})
	cfg := filepath.Join(dir, "fastbrowser.json")
	res := runCLI(t, nil, "validate", filepath.Join(dir, "good.json"))
	if res.code != 2 || !strings.Contains(res.stderr, cfg+": retries: expected 0 to 5") {
		t.Fatalf("validate: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--json", "--out", filepath.Join(dir, "out"), filepath.Join(dir, "good.json"))
	if res.code != 2 || !strings.Contains(res.stdout, `"file":"`+cfg+`","path":"retries"`) {
		t.Fatalf("run --json: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// Without --json the refusal says it is the config, not "1 invalid scenario file(s)".
	res = runCLI(t, nil, "run", "--out", filepath.Join(dir, "out"), filepath.Join(dir, "good.json"))
	if res.code != 2 || !strings.Contains(res.stderr, cfg+": retries: expected 0 to 5") ||
		!strings.Contains(res.stderr, "the run config is invalid; nothing ran") || strings.Contains(res.stderr, "invalid scenario file") {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// Found next to the file, the config's fixture makes a relative URL valid.
	res = runCLI(t, nil, "validate", filepath.Join(dir, "ok", "rel.json"))
	if res.code != 0 || !strings.HasPrefix(res.stdout, "config: "+filepath.Join(dir, "ok", "fastbrowser.json")+"\nok ") {
		t.Fatalf("validate with config: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "validate", "--config", filepath.Join(dir, "nope.json"), filepath.Join(dir, "ok", "rel.json"))
	if res.code != 2 || !strings.Contains(res.stderr, "nope.json: (root): cannot read the config file") {
		t.Fatalf("missing --config: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestUploadRelativeToScenario is issue 11 item 7's upload paths: a relative upload path
// resolves against the scenario file's directory (not the directory the run started in), and
// a missing file is refused at load with its field path and the path it resolved to.
func TestUploadRelativeToScenario(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	// The runtime only uploads files under the working directory: the suite lives below it.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(wd, "upload-e2e-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	body := func(file string) string {
		return fmt.Sprintf(`{"version": 1, "id": "upload-rel",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/upload"}},
    {"op": "act", "request": {"action": "upload", "target": {"role": "button", "name": "Document"}, "files": [%q]}},
    {"op": "assert", "request": {"kind": "textContains", "value": "1 file(s) chosen: report.txt"}}
  ]}`, site.URL, site.URL+"/health", file)
	}
	runtimetest.WriteFiles(t, dir, map[string]string{
		"suite/upload.json":       body("files/report.txt"),
		"suite/files/report.txt":  "quarterly numbers\n",
		"suite/missing/miss.json": body("files/report.txt"),
	})
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--out", out, filepath.Join(dir, "suite", "upload.json"))
	if res.code != 0 {
		t.Fatalf("upload relative to the scenario: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	miss := filepath.Join(dir, "suite", "missing", "miss.json")
	res = runCLI(t, nil, "validate", miss)
	want := miss + ": operations[1].request.files[0]: no such regular file: " + fmt.Sprintf("%q", filepath.Join(dir, "suite", "missing", "files", "report.txt"))
	if res.code != 2 || !strings.Contains(res.stderr, want) {
		t.Fatalf("missing upload file: exit %d, want %q\n%s%s", res.code, want, res.stdout, res.stderr)
	}
}
