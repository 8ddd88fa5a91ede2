package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestRunJSONWithInvalidFiles: with --json, invalid files still give one JSON object on
// stdout (status invalid, each refusal's file, path, code and message), and exit 2.
func TestRunJSONWithInvalidFiles(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "bad.json", `{"version": 1, "id": "bad", "operations": [{"op": "navigate", "request": {"url": 7}}]}`)
	res := runCLI(t, nil, "run", "--json", "--out", filepath.Join(dir, "out"), f)
	var out struct {
		Status string
		Errors []struct{ File, Path, Code, Message string }
	}
	if res.code != 2 || json.Unmarshal([]byte(res.stdout), &out) != nil || strings.Count(res.stdout, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q", res.code, res.stdout)
	}
	if out.Status != "invalid" || len(out.Errors) != 1 || out.Errors[0].File != f || out.Errors[0].Path != "operations[0].request.url" || out.Errors[0].Code != "invalid_request" {
		t.Fatalf("json %+v", out)
	}
}

// TestShardWithoutGrepMatchIsEmpty: --grep matching nothing in this shard (but something in
// another) is an empty shard: exit 0, as an empty shard is; without --shard it stays exit 2.
// The summary counts skipped scenarios.
func TestShardWithoutGrepMatchIsEmpty(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	for _, id := range []string{"alpha", "beta", "gamma"} {
		writeScenario(t, dir, id+".json", fmt.Sprintf(`{
  "version": 1, "id": %q,
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [{"op": "assert", "request": {"kind": "url", "value": "/nowhere", "wait": "none"}}]}`, id, site.URL, site.URL+"/health"))
	}
	res := runCLI(t, nil, "run", "--shard", "1/2", "--grep", "^beta$", "--out", filepath.Join(dir, "out1"), dir)
	if res.code != 0 || !strings.Contains(res.stdout, "shard 1/2 has no scenario files") {
		t.Fatalf("shard 1/2: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, nil, "run", "--grep", "^delta$", "--out", filepath.Join(dir, "out2"), dir); res.code != 2 {
		t.Fatalf("no match unsharded: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--fail-fast", "--jobs", "1", "--shard", "1/2", "--out", filepath.Join(dir, "out3"), dir)
	if res.code != 1 || !strings.Contains(res.stdout, "0 passed, 1 failed, 0 error, 1 skipped in ") {
		t.Fatalf("fail-fast summary: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestGrepSearchesTagsAndDescription: --grep matches a tag and a description whatever their
// case, --grep-invert drops, report.json carries the tags, and a pattern that keeps nothing
// or does not compile is a usage error saying what was searched.
func TestGrepSearchesTagsAndDescription(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir, outs := t.TempDir(), t.TempDir()
	for _, s := range []struct{ id, desc, tags string }{
		{"alpha", "Routing: all items", `["@smoke"]`},
		{"beta", "", `["@Smoke", "@slow"]`},
		{"gamma", "", `["routing"]`},
	} {
		writeScenario(t, dir, s.id+".json", fmt.Sprintf(`{
  "version": 1, "id": %q, "description": %q, "tags": %s,
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [{"op": "navigate", "request": {"url": "/"}}]}`, s.id, s.desc, s.tags, site.URL, site.URL+"/health"))
	}
	out := filepath.Join(outs, "out")
	res := runCLI(t, nil, "run", "--grep", "@SMOKE", "--grep-invert", "@slow", "--out", out, dir)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	rep := readReport(t, filepath.Join(out, "report.json"))
	if len(rep.Scenarios) != 1 || rep.Scenarios[0].ID != "alpha" || !slices.Equal(rep.Scenarios[0].Tags, []string{"@smoke"}) {
		t.Fatalf("ran %+v", rep.Scenarios)
	}
	res = runCLI(t, nil, "run", "--grep", "checkout", "--out", filepath.Join(outs, "out2"), dir)
	if res.code != 2 || !strings.Contains(res.stderr, `--grep "checkout" kept none of 3 scenarios (searched each one's id, description and tags, case-insensitively)`) {
		t.Fatalf("no match: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--grep-invert", "(", "--out", filepath.Join(outs, "out3"), dir)
	if res.code != 2 || !strings.Contains(res.stderr, `--grep-invert "(": not a valid regular expression: missing closing )`) {
		t.Fatalf("bad pattern: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestValidateListsEveryError: validate prints each of a file's three errors on a line of
// its own, FILE: PATH: message (code), and exits 2.
func TestValidateListsEveryError(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "bad.json", `{
  "version": 1, "id": "bad", "tags": ["@ok", "@ok"],
  "budgets": {"timeoutMs": "60000"},
  "operations": [{"op": "navigate", "request": {"url": 7}}]}`)
	res := runCLI(t, nil, "validate", f)
	lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
	want := []string{
		f + ": tags: ",
		f + ": budgets.timeoutMs: ",
		f + ": operations[0].request.url: ",
	}
	if res.code != 2 || len(lines) != len(want) {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) || !strings.HasSuffix(lines[i], "(invalid_request)") {
			t.Errorf("line %d: %s\nwant %s… (invalid_request)", i, lines[i], want[i])
		}
	}
}
