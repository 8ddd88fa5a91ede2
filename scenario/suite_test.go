package scenario

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// suiteOf is a Suite of loaded in a browser of its own, the built binary as worker, its
// output under a temp directory; the test closes it.
func suiteOf(t *testing.T, loaded []*Loaded, jobs int, emit func(ScenarioReport)) *Suite {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSuite(loaded, SuiteOptions{Jobs: jobs, Out: filepath.Join(t.TempDir(), "out"), Emit: emit,
		Session: runtime.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSuiteSessionsOwnTheirBrowser is `run`'s shared browser: the suite launches one browser
// on the first open, every scenario's session runs in it and is not attached (the browser is
// fastbrowser's), and closing the suite stops it.
func TestSuiteSessionsOwnTheirBrowser(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	doc := func(id string) map[string]any {
		return map[string]any{"version": 1, "id": id, "fixture": map[string]any{"baseUrl": site.URL},
			"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}}}}
	}
	loaded := []*Loaded{load(t, doc("one")), load(t, doc("two"))}
	s := suiteOf(t, loaded, 2, nil)
	defer s.Close()
	var pids []int
	for _, l := range loaded {
		sess, err := s.env(l).Open(context.Background(), l.sessionSpec())
		if err != nil {
			t.Fatal(err)
		}
		rt := sess.(*suiteSession).Runtime
		if rt.Attached() {
			t.Errorf("%s: a session in the suite's launched browser says it is attached", l.ID)
		}
		pids = append(pids, rt.BrowserPid())
		if err := sess.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if pids[0] == 0 || pids[1] != pids[0] || !runtimetest.PidAlive(pids[0]) {
		t.Fatalf("browser pids %v: want one live browser for both sessions", pids)
	}
	s.Close()
	proctest.RequireGroupGone(t, pids[0], budgets.ProcessStopGrace().Default)
}

// TestSuiteReportsInInputOrder: with more jobs than scenarios, reports reach Emit and the
// report in input order, the report says the browser was fastbrowser's and which it was.
func TestSuiteReportsInInputOrder(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	var loaded []*Loaded
	var want []string
	for _, id := range []string{"c", "a", "b"} {
		loaded = append(loaded, load(t, map[string]any{"version": 1, "id": id, "fixture": map[string]any{"baseUrl": site.URL},
			"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/"}}}}))
		want = append(want, id)
	}
	var emitted []string
	s := suiteOf(t, loaded, 3, func(sr ScenarioReport) { emitted = append(emitted, sr.ID) })
	defer s.Close()
	rep := s.Run(context.Background())
	var got []string
	for _, sr := range rep.Scenarios {
		got = append(got, sr.ID)
		if sr.Status != StatusPassed {
			t.Errorf("%s: %s %+v", sr.ID, sr.Status, sr.Error)
		}
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(emitted, want) {
		t.Errorf("report order %v, emitted %v; want %v", got, emitted, want)
	}
	if rep.Status != StatusPassed || rep.Browser.Attached || rep.Browser.Version == "" {
		t.Errorf("report status %s, browser %+v", rep.Status, rep.Browser)
	}
}

func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"": {1, 1}, "1/1": {1, 1}, "2/3": {2, 3}, "1000/1000": {1000, 1000}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0/1", "2/1", "1/0", "1", "a/b", "1/1001", "-1/2"} {
		if _, err := ParseShard(in); err == nil {
			t.Errorf("ParseShard(%q) accepted", in)
		}
	}
}

func TestShardPicksEveryFileOnce(t *testing.T) {
	files := []string{"a", "b", "c", "d", "e"}
	var all []string
	for i := 1; i <= 3; i++ {
		all = append(all, Shard{i, 3}.Pick(files)...)
	}
	if got := (Shard{2, 3}).Pick(files); !reflect.DeepEqual(got, []string{"b", "e"}) {
		t.Errorf("shard 2/3 picked %v", got)
	}
	if len(all) != len(files) {
		t.Errorf("the shards together picked %v", all)
	}
}

func TestGrepKeepsMatchingIDs(t *testing.T) {
	loaded := []*Loaded{{File: &File{ID: "login-ok"}}, {File: &File{ID: "login-bad"}}, {File: &File{ID: "search"}}}
	got, err := Grep("^login-", "", loaded)
	if err != nil || len(got) != 2 || got[0].ID != "login-ok" || got[1].ID != "login-bad" {
		t.Errorf("Grep: %v, %v", got, err)
	}
	if all, err := Grep("", "", loaded); err != nil || len(all) != 3 {
		t.Errorf("empty pattern: %v, %v", all, err)
	}
	for _, bad := range []string{"nomatch", "("} {
		if _, err := Grep(bad, "", loaded); err == nil {
			t.Errorf("Grep(%q) accepted", bad)
		}
	}
}

// --grep searches id, description and tags case-insensitively, as Playwright's --grep
// searches a title with its tags; --grep-invert drops what it matches.
func TestGrepSearchesDescriptionAndTagsCaseInsensitively(t *testing.T) {
	loaded := []*Loaded{
		{File: &File{ID: "todo-add", Description: "Routing: adds an item", Tags: []string{"@smoke"}}},
		{File: &File{ID: "todo-edit", Tags: []string{"@slow", "routing"}}},
		{File: &File{ID: "search"}},
	}
	ids := func(ls []*Loaded) (out []string) {
		for _, l := range ls {
			out = append(out, l.ID)
		}
		return out
	}
	cases := []struct {
		grep, invert string
		want         []string
	}{
		{"routing", "", []string{"todo-add", "todo-edit"}}, // a description's "Routing" and a tag
		{"@SMOKE", "", []string{"todo-add"}},
		{"", "@slow", []string{"todo-add", "search"}},
		{"^todo", "@smoke", []string{"todo-edit"}},
		{"^todo-add$", "", []string{"todo-add"}},        // an anchored id, as before tags
		{"^todo-edit @slow", "", []string{"todo-edit"}}, // across fields, as a title with its tags
	}
	for _, c := range cases {
		got, err := Grep(c.grep, c.invert, loaded)
		if err != nil || !reflect.DeepEqual(ids(got), c.want) {
			t.Errorf("Grep(%q, %q) = %v, %v; want %v", c.grep, c.invert, ids(got), err, c.want)
		}
	}
	_, err := Grep("checkout", "", loaded)
	if !errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), "id, description and tags") {
		t.Errorf("no match: %v", err)
	}
	_, err = Grep("", "(", loaded)
	if !errors.Is(err, ErrBadPattern) || !strings.Contains(err.Error(), `--grep-invert "("`) || !strings.Contains(err.Error(), "missing closing )") {
		t.Errorf("bad invert pattern: %v", err)
	}
}
