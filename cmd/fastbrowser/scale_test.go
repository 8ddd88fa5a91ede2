package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/junit/junittest"
)

// writeSuite writes n small scenarios s01…sNN against an external fixture; the ones listed
// in failing assert a title the page does not have.
func writeSuite(t *testing.T, site string, n int, failing ...int) string {
	t.Helper()
	dir := t.TempDir()
	for i := 1; i <= n; i++ {
		title := "Sign in"
		if slices.Contains(failing, i) {
			title = "Not this"
		}
		writeScenario(t, dir, fmt.Sprintf("s%02d.json", i), fmt.Sprintf(`{
  "version": 1, "id": "s%02d",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"op": "assert", "request": {"kind": "title", "value": %q, "wait": "none"}}
  ]}`, i, site, site+"/health", title))
	}
	return dir
}

func reportIDs(t *testing.T, out string) ([]string, []string) {
	t.Helper()
	r := readReport(t, filepath.Join(out, "report.json"))
	var ids, statuses []string
	for _, s := range r.Scenarios {
		ids, statuses = append(ids, s.ID), append(statuses, s.Status)
	}
	return ids, statuses
}

// TestShardsCoverEveryScenarioOnce is acceptance 4: --shard 1/3, 2/3 and 3/3 together run
// every scenario exactly once.
func TestShardsCoverEveryScenarioOnce(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := writeSuite(t, site.URL, 7)
	var all []string
	for i := 1; i <= 3; i++ {
		out := filepath.Join(t.TempDir(), "out")
		if res := runCLI(t, nil, "run", "--shard", fmt.Sprintf("%d/3", i), "--out", out, dir); res.code != 0 {
			t.Fatalf("shard %d: exit %d\n%s%s", i, res.code, res.stdout, res.stderr)
		}
		ids, _ := reportIDs(t, out)
		if len(ids) < 2 || len(ids) > 3 {
			t.Errorf("shard %d ran %v", i, ids)
		}
		all = append(all, ids...)
	}
	slices.Sort(all)
	want := []string{"s01", "s02", "s03", "s04", "s05", "s06", "s07"}
	if !slices.Equal(all, want) {
		t.Fatalf("shards ran %v, want each of %v once", all, want)
	}
	if res := runCLI(t, nil, "run", "--shard", "4/3", dir); res.code != 2 {
		t.Fatalf("--shard 4/3: exit %d", res.code)
	}
}

// TestParallelRunKeepsOrder: with --jobs 4 the report and the progress lines follow the
// file order, whatever finished first.
func TestParallelRunKeepsOrder(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := writeSuite(t, site.URL, 6, 3)
	out := filepath.Join(t.TempDir(), "out")
	res := runCLI(t, nil, "run", "--jobs", "4", "--out", out, dir)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	ids, statuses := reportIDs(t, out)
	if !slices.Equal(ids, []string{"s01", "s02", "s03", "s04", "s05", "s06"}) || statuses[2] != "failed" || statuses[5] != "passed" {
		t.Fatalf("report order %v %v\n%s", ids, statuses, res.stdout)
	}
	// junit.xml (acceptance 6): well-formed for CI readers, one suite per file, the counts
	// of the run.
	if suites := readJUnit(t, out); suites.Tests != 6 || suites.Failures != 1 || len(suites.Suites) != 6 {
		t.Fatalf("junit.xml: %+v", suites)
	}
	last := -1
	for i := 1; i <= 6; i++ {
		at := strings.Index(res.stdout, fmt.Sprintf(" s%02d (", i))
		if at < last {
			t.Fatalf("progress lines out of order:\n%s", res.stdout)
		}
		last = at
	}
}

// TestGrepAndFailFast: --grep selects by id; --fail-fast starts nothing after a failure and
// reports the rest skipped.
func TestGrepAndFailFast(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := writeSuite(t, site.URL, 5, 2)
	out := filepath.Join(t.TempDir(), "out")
	if res := runCLI(t, nil, "run", "--grep", "^s0[45]$", "--out", out, dir); res.code != 0 {
		t.Fatalf("grep: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if ids, _ := reportIDs(t, out); !slices.Equal(ids, []string{"s04", "s05"}) {
		t.Fatalf("grep ran %v", ids)
	}
	if res := runCLI(t, nil, "run", "--grep", "nothing-matches", dir); res.code != 2 {
		t.Fatalf("empty grep: exit %d", res.code)
	}
	res := runCLI(t, nil, "run", "--jobs", "1", "--fail-fast", "--out", out, dir)
	if res.code != 1 {
		t.Fatalf("fail-fast: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if _, statuses := reportIDs(t, out); !slices.Equal(statuses, []string{"passed", "failed", "skipped", "skipped", "skipped"}) {
		t.Fatalf("fail-fast statuses %v", statuses)
	}
}

// TestBaseURLOverride: --base-url turns a managed scenario (whose server command does not
// even exist here) into an external one against the given site.
func TestBaseURLOverride(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "managed.json", `{
  "version": 1, "id": "managed-elsewhere",
  "fixture": {"baseUrl": "http://127.0.0.1:1", "server": {"mode": "managed",
    "start": {"command": "/nonexistent/server"}, "readiness": {"url": "http://127.0.0.1:1/health"}}},
  "allowedOrigins": ["http://127.0.0.1:1"],
  "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"op": "assert", "request": {"kind": "title", "value": "Sign in", "wait": "none"}}
  ]}`)
	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--base-url", site.URL, "--readiness-url", site.URL+"/health", "--out", out, f)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, nil, "run", "--readiness-url", site.URL, f); res.code != 2 {
		t.Fatalf("--readiness-url alone: exit %d", res.code)
	}
}

// junitCounts are junit.xml's totals and its suites.
type junitCounts struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name string `xml:"name,attr"`
	} `xml:"testsuite"`
}

// readJUnit reads out/junit.xml, fails t unless it holds to the schema CI readers take
// (junittest.Check), and returns its counts.
func readJUnit(t *testing.T, out string) junitCounts {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := junittest.Check(data); err != nil {
		t.Fatalf("junit.xml: %v\n%s", err, data)
	}
	var counts junitCounts
	if err := xml.Unmarshal(data, &counts); err != nil {
		t.Fatalf("junit.xml: %v\n%s", err, data)
	}
	return counts
}
