package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// writeFiles writes name → content under dir and returns dir.
func writeFiles(t *testing.T, dir string, files map[string]string) string {
	runtimetest.WriteFiles(t, dir, files)
	return dir
}

const loginFragment = `{"version": 1, "fragment": "login", "description": "signs in",
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/login"}},
    {"id": "narrow", "op": "narrowOriginPolicy", "request": {"origins": ["http://127.0.0.1:4310"]}},
    {"id": "user", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Username"}, "text": "ada"}, "context": {"operation": {"id": "narrow"}}},
    {"id": "pass", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Password"}, "text": {"env": "FB_FRAGMENT_PASSWORD"}}},
    {"id": "tabs", "op": "listTabs"},
    {"op": "read", "request": {"tab": {"source": "operation", "operation": {"id": "tabs"}, "result": "listedTab", "index": 0}}},
    {"op": "read", "request": {"tab": {"source": "operation", "operation": {"index": 4}, "result": "listedTab", "index": 0}}, "context": {"operation": {"index": 1}}}
  ]}`

func scenarioWith(ops string) string {
	return `{"version": 1, "id": "inc", "fixture": {"baseUrl": "http://127.0.0.1:4310"}, "operations": [` + ops + `]}`
}

// TestIncludePrefixesIdsAndRewritesRefs: a fragment's operations replace the include entry,
// their ids get the prefix (the entry's id, else the fragment's name), and references inside
// the fragment (context, tab refs by id and by index) follow them; the scenario's own index
// references count expanded operations.
func TestIncludePrefixesIdsAndRewritesRefs(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"fragments/login.json": loginFragment,
		"s.json": scenarioWith(`{"id": "first", "op": "read"},
			{"include": "fragments/login.json"},
			{"id": "again", "include": "fragments/login.json"},
			{"op": "read", "request": {"tab": {"source": "operation", "operation": {"id": "login.tabs"}, "result": "listedTab"}}},
			{"op": "read", "context": {"operation": {"id": "again.narrow"}}},
			{"op": "read", "request": {"tab": {"source": "operation", "operation": {"index": 0}, "result": "listedTab"}}}`),
	})
	_, err := Load(filepath.Join(dir, "s.json"))
	if err == nil || !strings.Contains(err.Error(), "operations[5].request.tab.result") {
		// index 0 is "first", a read: the index is the file's, not the expanded list's.
		t.Fatalf("want the last entry's index 0 to name \"first\" (a read) and be refused, got %v", err)
	}
	dir = writeFiles(t, dir, map[string]string{"s.json": scenarioWith(`{"id": "first", "op": "listTabs"},
			{"include": "fragments/login.json"},
			{"id": "again", "include": "fragments/login.json"},
			{"op": "read", "request": {"tab": {"source": "operation", "operation": {"id": "login.tabs"}, "result": "listedTab"}}},
			{"op": "read", "context": {"operation": {"id": "again.narrow"}}},
			{"op": "read", "request": {"tab": {"source": "operation", "operation": {"index": 0}, "result": "listedTab"}}}`)})
	l, err := Load(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, op := range l.Operations {
		ids = append(ids, op.ID)
	}
	want := "first login.open login.narrow login.user login.pass login.tabs   again.open again.narrow again.user again.pass again.tabs     "
	if got := strings.Join(ids, " "); got != want {
		t.Fatalf("ids\n got %q\nwant %q", got, want)
	}
	// login.user's context → login.narrow (index 2); again.user's → again.narrow (index 9).
	if got := l.Operations[3].Context.Operation.ID; got != "login.narrow" {
		t.Errorf("context rewritten to %q", got)
	}
	if got := l.Operations[10].Context.Operation.ID; got != "again.narrow" {
		t.Errorf("second include's context rewritten to %q", got)
	}
	// The fragment's tab refs: by id → login.tabs; by index 4 → its own listTabs (expanded 5, then 12).
	if got := l.Operations[6].req.tab.Operation.ID; got != "login.tabs" {
		t.Errorf("tab ref by id rewritten to %q", got)
	}
	for _, c := range []struct{ op, want int }{{7, 5}, {14, 12}} {
		if got := *l.Operations[c.op].req.tab.Operation.Index; got != c.want {
			t.Errorf("operations[%d] tab ref by index → %d, want %d", c.op, got, c.want)
		}
	}
	if got := *l.Operations[7].Context.Operation.Index; got != 2 {
		t.Errorf("context by index → %d, want 2", got)
	}
	if got := l.Operations[15].req.tab.Operation.ID; got != "login.tabs" {
		t.Errorf("scenario's ref to a fragment op: %q", got)
	}
	if len(l.Fragments) != 2 || l.Fragments[0].File != filepath.Join(dir, "fragments/login.json") {
		t.Errorf("fragments %+v", l.Fragments)
	}
	// The digest covers the fragment: editing it changes the scenario's sha256.
	before := l.SHA256
	file, _ := os.ReadFile(filepath.Join(dir, "s.json"))
	if sum := sha256.Sum256(file); hex.EncodeToString(sum[:]) == before {
		t.Errorf("sha256 is the file's alone")
	}
	writeFiles(t, dir, map[string]string{"fragments/login.json": strings.Replace(loginFragment, "signs in", "signs in.", 1)})
	if l2, err := Load(filepath.Join(dir, "s.json")); err != nil || l2.SHA256 == before {
		t.Errorf("sha256 unchanged after a fragment edit (%v)", err)
	}
}

// TestIncludeRefusals: every refusal names the scenario file, the include entry's path, the
// fragment and the field inside it.
func TestIncludeRefusals(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		path  string // the ValidationError's path
		msg   []string
	}{
		{"missing fragment", map[string]string{"s.json": scenarioWith(`{"op":"read"},{"include":"fragments/nope.json"}`)},
			"operations[1].include", []string{"fragments/nope.json", "cannot read the fragment file"}},
		{"unknown field in fragment", map[string]string{"s.json": scenarioWith(`{"include":"f.json"}`),
			"f.json": `{"version":1,"fragment":"f","operations":[{"op":"read"}],"extra":1}`},
			"operations[0].include", []string{"f.json: extra: unknown field"}},
		{"no name", map[string]string{"s.json": scenarioWith(`{"include":"f.json"}`), "f.json": `{"version":1,"operations":[{"op":"read"}]}`},
			"operations[0].include", []string{`f.json: (root): missing required field "fragment"`}},
		{"a scenario is not a fragment", map[string]string{"s.json": scenarioWith(`{"include":"t.json"}`), "t.json": scenarioWith(`{"op":"read"}`)},
			"operations[0].include", []string{"t.json: id: unknown field"}},
		{"bad operation inside", map[string]string{"s.json": scenarioWith(`{"op":"read"},{"op":"read"},{"include":"f/f.json"}`),
			"f/f.json": `{"version":1,"fragment":"f","operations":[{"op":"read"},{"op":"navigate","request":{"url":"ftp://x"}}]}`},
			"operations[2].include", []string{"f/f.json: operations[1].request.url: expected an http or https URL"}},
		{"include entry with op", map[string]string{"s.json": scenarioWith(`{"op":"read","include":"f.json"}`)},
			"operations[0]", []string{`an include entry has only "include" and "id"`}},
		// A condition on an include entry would be dropped: refused, as the schema does.
		{"include entry with when", map[string]string{"s.json": scenarioWith(`{"include":"f.json","when":{"kind":"title","value":"x"}}`)},
			"operations[0]", []string{`an include entry has only "include" and "id"`}},
		{"cycle", map[string]string{"s.json": scenarioWith(`{"include":"a.json"}`),
			"a.json":     `{"version":1,"fragment":"a","operations":[{"include":"sub/b.json"}]}`,
			"sub/b.json": `{"version":1,"fragment":"b","operations":[{"op":"read"},{"include":"../a.json"}]}`},
			"operations[0].include", []string{"a.json: operations[0].include: /", "/sub/b.json: operations[1].include: include cycle: a.json → b.json → a.json"}},
		{"self include", map[string]string{"s.json": scenarioWith(`{"include":"s.json"}`)},
			"operations[0].include", []string{"include cycle: s.json → s.json"}},
		{"duplicate prefix", map[string]string{"s.json": scenarioWith(`{"include":"f.json"},{"include":"f.json"}`),
			"f.json": `{"version":1,"fragment":"f","operations":[{"id":"x","op":"read"}]}`},
			"operations[1].include", []string{`f.json: operations[0].id: id "f.x" is already used by operations[0] (from`}},
		{"index ref to an include entry", map[string]string{"s.json": scenarioWith(`{"include":"f.json"},{"op":"read","context":{"operation":{"index":0}}}`),
			"f.json": `{"version":1,"fragment":"f","operations":[{"op":"narrowOriginPolicy","request":{"origins":["http://127.0.0.1:4310"]}}]}`},
			"operations[1].context.operation.index", []string{"operations[0] is an include entry"}},
		{"fragment index out of its own range", map[string]string{"s.json": scenarioWith(`{"op":"listTabs"},{"op":"listTabs"},{"include":"f.json"}`),
			"f.json": `{"version":1,"fragment":"f","operations":[{"op":"read","request":{"tab":{"source":"operation","operation":{"index":1},"result":"listedTab"}}}]}`},
			"operations[2].include", []string{"f.json: operations[0].request.tab.operation.index: no operation at that index"}},
		{"bad upload inside", map[string]string{"s.json": scenarioWith(`{"include":"f/f.json"}`),
			"f/f.json": `{"version":1,"fragment":"f","operations":[{"op":"act","request":{"action":"upload","target":{"ref":"e1"},"files":["gone.txt"]}}]}`},
			"operations[0].include", []string{"f/f.json: operations[0].request.files[0]: no such regular file", filepath.Join("f", "gone.txt")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), c.files)
			_, err := Load(filepath.Join(dir, "s.json"))
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want a ValidationError, got %v", err)
			}
			if ve.File != filepath.Join(dir, "s.json") || ve.Path != c.path || ve.Code != transport.CodeInvalidRequest {
				t.Errorf("file %q path %q code %s, want %q %q: %v", ve.File, ve.Path, ve.Code, filepath.Join(dir, "s.json"), c.path, err)
			}
			for _, m := range c.msg {
				if !strings.Contains(ve.Message, m) {
					t.Errorf("message %q lacks %q", ve.Message, m)
				}
			}
		})
	}
}

// TestIncludeSecrets: a secret typed in a fragment is a secret of the scenario: checked at
// load (unset → refused at the include entry, naming the fragment's field) and masked.
func TestIncludeSecrets(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"fragments/login.json": loginFragment,
		"s.json":               scenarioWith(`{"op":"read"},{"include":"fragments/login.json"}`),
	})
	l, err := Load(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	err = CheckSecrets(l, func(string) (string, bool) { return "", false })
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Path != "operations[1].include" ||
		!strings.Contains(ve.Message, "fragments/login.json: operations[3].request.text.env: environment variable FB_FRAGMENT_PASSWORD is not set") {
		t.Fatalf("unset fragment secret: %v", err)
	}
	refs := secretRefs(l)
	if len(refs) != 1 || refs[0].name != "FB_FRAGMENT_PASSWORD" {
		t.Fatalf("secret refs %+v", refs)
	}
}

// TestFragmentFileIsNotAScenario: given as a scenario, a fragment file is refused as one
// (not with an unknown-field error about "fragment").
func TestFragmentFileIsNotAScenario(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"f.json": loginFragment})
	_, err := Load(filepath.Join(dir, "f.json"))
	if err == nil || !strings.Contains(err.Error(), "a fragment file, not a scenario") {
		t.Fatalf("got %v", err)
	}
	if !IsFragment([]byte(loginFragment)) || IsFragment([]byte(scenarioWith(`{"op":"read"}`))) {
		t.Error("IsFragment")
	}
}

// TestIncludeDepth: includes nest at most budgets.IncludeDepth levels, even without a cycle.
func TestIncludeDepth(t *testing.T) {
	chain := func(n int) map[string]string {
		files := map[string]string{"s.json": scenarioWith(`{"include":"f1.json"}`)}
		for i := 1; i <= n; i++ {
			op := `{"op":"read"}`
			if i < n {
				op = fmt.Sprintf(`{"include":"f%d.json"}`, i+1)
			}
			files[fmt.Sprintf("f%d.json", i)] = fmt.Sprintf(`{"version":1,"fragment":"f%d","operations":[%s]}`, i, op)
		}
		return files
	}
	dir := writeFiles(t, t.TempDir(), chain(budgets.IncludeDepth))
	l, err := Load(filepath.Join(dir, "s.json"))
	if err != nil {
		t.Fatalf("%d levels: %v", budgets.IncludeDepth, err)
	}
	if got := l.Operations[0].ID; got != "" || len(l.Fragments) != budgets.IncludeDepth {
		t.Errorf("id %q, %d fragments", got, len(l.Fragments))
	}
	dir = writeFiles(t, t.TempDir(), chain(budgets.IncludeDepth+1))
	if _, err := Load(filepath.Join(dir, "s.json")); err == nil || !strings.Contains(err.Error(), "includes nest more than 8 levels deep") {
		t.Fatalf("%d levels: %v", budgets.IncludeDepth+1, err)
	}
}
