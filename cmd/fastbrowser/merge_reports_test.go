package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// runShard runs shard i/n of dir into a new results directory and returns it, failing the
// test unless the run exits want.
func runShard(t *testing.T, dir string, i, n, want int) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), fmt.Sprintf("shard-%d", i))
	if res := runCLI(t, nil, "run", "--shard", fmt.Sprintf("%d/%d", i, n), "--jobs", "2", "--out", out, dir); res.code != want {
		t.Fatalf("shard %d/%d: exit %d, want %d\n%s%s", i, n, res.code, want, res.stdout, res.stderr)
	}
	return out
}

// reportMetas lists every artifact metadata entry of a report: evidence, result artifacts
// aside (this suite has none), diagnostics and step traces, of scenarios and attempts.
func reportMetas(rep scenario.Report) []artifacts.Meta {
	var ms []artifacts.Meta
	trace := func(steps []scenario.TraceStep) {
		for _, st := range steps {
			for _, m := range []*artifacts.Meta{st.Screenshot, st.Outline, st.Console, st.Network} {
				if m != nil {
					ms = append(ms, *m)
				}
			}
		}
	}
	for _, s := range rep.Scenarios {
		for _, op := range s.Operations {
			ms = append(ms, op.Evidence...)
		}
		ms = append(ms, s.Diagnostics...)
		trace(s.Trace)
		for _, a := range s.Attempts {
			if a.Operation != nil {
				ms = append(ms, a.Operation.Evidence...)
			}
			ms = append(ms, a.Diagnostics...)
			trace(a.Trace)
		}
	}
	return ms
}

// pageLinks returns every href and src of an HTML page that is not data: or a fragment.
func pageLinks(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatalf("report.html does not parse: %v", err)
	}
	var links []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				if (a.Key == "href" || a.Key == "src") && !strings.HasPrefix(a.Val, "data:") && !strings.HasPrefix(a.Val, "#") {
					links = append(links, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return links
}

// TestMergeReports is issue 29 item 2: three shards of a seven-scenario suite against the
// fixture, one scenario failing with evidence and a step trace, merge into one report.json
// (every scenario once, in suite order, counts recomputed), junit.xml and report.html whose
// every evidence link resolves under --out; the merge exits as the run would (1). Then the
// refusals, each exit 2 naming what is wrong and leaving no --out behind: a shard missing, a
// shard given twice, a shard of a different suite, evidence whose bytes were changed, a
// report that is not a shard's, and --out naming a shard.
func TestMergeReports(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	suite := writeSuite(t, site.URL, 7, 5) // s05 is file 5: shard 2/3 (every 3rd from the 2nd)
	shard1, shard2, shard3 := runShard(t, suite, 1, 3, 0), runShard(t, suite, 2, 3, 1), runShard(t, suite, 3, 3, 0)

	out := filepath.Join(t.TempDir(), "merged")
	res := runCLI(t, nil, "merge-reports", "--out", out, shard3, shard1, shard2) // any order
	if res.code != 1 {
		t.Fatalf("merge: exit %d, want 1 (a scenario failed)\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "merged 3 shards: 6 passed, 1 failed, 0 error") {
		t.Fatalf("merge summary:\n%s", res.stdout)
	}
	rep := readReport(t, filepath.Join(out, "report.json"))
	ids, _ := reportIDs(t, out)
	if !slices.Equal(ids, []string{"s01", "s02", "s03", "s04", "s05", "s06", "s07"}) {
		t.Fatalf("merged scenarios %v, want each of s01…s07 once in suite order", ids)
	}
	if c := rep.Count(); rep.Status != scenario.StatusFailed || c.Passed != 6 || c.Failed != 1 || c.Error != 0 {
		t.Fatalf("merged status %s counts %+v", rep.Status, c)
	}
	shardRep := readReport(t, filepath.Join(shard2, "report.json"))
	if s := rep.Suite; s == nil || s.Shard != nil || len(s.MergedFrom) != 3 || s.SHA256 != shardRep.Suite.SHA256 || len(s.Files) != 7 ||
		s.MergedFrom[1].RunID != shardRep.RunID || s.MergedFrom[1].Shard.Index != 2 {
		t.Fatalf("merged suite %+v", rep.Suite)
	}
	// Every entry names a copy under --out whose bytes are those recorded; the failed
	// scenario's evidence and trace are among them.
	metas := reportMetas(rep)
	failed := rep.Scenarios[4]
	if failed.Status != scenario.StatusFailed || len(failed.Operations[1].Evidence) == 0 || len(failed.Trace) == 0 {
		t.Fatalf("s05 has no evidence or trace: %+v", failed)
	}
	for _, m := range metas {
		if _, err := artifacts.ReadCommitted(filepath.Join(out, "artifacts"), m); err != nil {
			t.Errorf("merged evidence %s: %v", m.Path, err)
		}
	}
	links := pageLinks(t, filepath.Join(out, "report.html"))
	if len(links) == 0 {
		t.Fatal("report.html links no evidence file (the failed scenario's trace pictures)")
	}
	for _, l := range links {
		p := filepath.Join(out, filepath.FromSlash(l))
		if rel, err := filepath.Rel(out, p); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("report.html links %s, outside --out", l)
		} else if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("report.html links %s, which is not a file under --out: %v", l, err)
		}
	}
	if suites := readJUnit(t, out); suites.Tests != 7 || suites.Failures != 1 || suites.Errors != 0 {
		t.Fatalf("junit.xml: %+v", suites)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".merged.merging-*")); len(left) > 0 {
		t.Fatalf("staging left behind: %v", left)
	}

	// --json is run --json's summary of the merged run.
	js := runCLI(t, nil, "merge-reports", "--json", "--out", filepath.Join(t.TempDir(), "merged"), shard1, shard2, shard3)
	var sum runSummary
	if err := json.Unmarshal([]byte(js.stdout), &sum); err != nil || js.code != 1 || sum.Counts.Passed != 6 || sum.Counts.Failed != 1 || !slices.Equal(sum.Failed, []string{"s05"}) {
		t.Fatalf("merge --json: exit %d %v %+v\n%s%s", js.code, err, sum, js.stdout, js.stderr)
	}

	// Refusals. Each must name what is wrong and write nothing.
	other := t.TempDir() // the same suite but for file 3's bytes
	for _, e := range []string{"s01", "s02", "s03", "s04", "s05", "s06", "s07"} {
		body, _ := os.ReadFile(filepath.Join(suite, e+".json"))
		if e == "s03" {
			body = append(body, '\n')
		}
		writeScenario(t, other, e+".json", string(body))
	}
	otherShard2 := runShard(t, other, 2, 3, 1)
	duplicate := filepath.Join(t.TempDir(), "shard-2-again")
	if err := os.CopyFS(duplicate, os.DirFS(shard2)); err != nil {
		t.Fatal(err)
	}
	tampered := filepath.Join(t.TempDir(), "shard-2-tampered")
	if err := os.CopyFS(tampered, os.DirFS(shard2)); err != nil {
		t.Fatal(err)
	}
	shot := ""
	for _, m := range shardRep.Scenarios[1].Operations[1].Evidence { // shard 2 runs s02 and s05
		if m.Kind == "screenshot" {
			shot = filepath.Join(tampered, "artifacts", m.Path)
		}
	}
	if shot == "" {
		t.Fatalf("s05 kept no screenshot: %+v", shardRep.Scenarios[1].Operations[1])
	}
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(shot, b, 0o600); err != nil {
		t.Fatal(err)
	}
	noSuite := t.TempDir()
	writeScenario(t, noSuite, "report.json", `{"version": 1, "runId": "r1", "status": "passed", "scenarios": []}`)
	foreign := t.TempDir()
	writeScenario(t, foreign, "report.json", `{"results": []}`)

	for _, tc := range []struct {
		name string
		dirs []string
		out  string
		want []string
	}{
		{"missing shard", []string{shard1, shard3}, "", []string{"shard 2/3 of the suite is missing", shard1, shard3}},
		{"duplicated shard", []string{shard1, shard2, duplicate, shard3}, "", []string{"shard 2/3 is given twice", shard2, duplicate}},
		{"different suite", []string{shard1, otherShard2, shard3}, "", []string{otherShard2, "not shards of one suite", "file 3 differs", "s03.json"}},
		{"tampered evidence", []string{shard1, tampered, shard3}, "", []string{tampered, "shard 2/3", shot, "do not match the recorded size and sha256"}},
		{"not a shard's report", []string{shard1, noSuite, shard3}, "", []string{noSuite, "does not say which suite and shard"}},
		{"foreign report", []string{shard1, foreign, shard3}, "", []string{filepath.Join(foreign, "report.json"), "not a fastbrowser report"}},
		{"out is a shard", []string{shard1, shard2, shard3}, shard1, []string{"--out " + shard1 + " is one of the shard directories"}},
		{"out not empty", []string{shard1, shard2, shard3}, foreign, []string{"--out " + foreign + " exists and is not empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.out
			if o == "" {
				o = filepath.Join(t.TempDir(), "merged")
			}
			res := runCLI(t, nil, append([]string{"merge-reports", "--out", o}, tc.dirs...)...)
			if res.code != 2 {
				t.Fatalf("exit %d, want 2\n%s%s", res.code, res.stdout, res.stderr)
			}
			t.Log(strings.TrimSpace(res.stderr))
			for _, w := range tc.want {
				if !strings.Contains(res.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, res.stderr)
				}
			}
			if tc.out == "" {
				if _, err := os.Lstat(o); !os.IsNotExist(err) {
					t.Errorf("--out %s exists after a refusal: %v", o, err)
				}
				if left, _ := filepath.Glob(filepath.Join(filepath.Dir(o), ".merged.merging-*")); len(left) > 0 {
					t.Errorf("staging left behind: %v", left)
				}
			}
		})
	}
}
