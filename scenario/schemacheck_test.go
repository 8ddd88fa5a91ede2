package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllErrorsListsEveryError: a file with three distinct errors is reported with all
// three, in the order the file reads, with Parse's paths; the strict decoder's refusal takes
// the place of the schema's entry at its path; the list is bounded and counts the rest.
func TestAllErrorsListsEveryError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.json")
	data := `{
  "version": 1, "id": "bad",
  "fixture": {"baseUrl": "http://127.0.0.1:1", "extra": true},
  "operations": [
    {"op": "navigate", "request": {"url": "/"}},
    {"op": "navigate", "request": {"url": 5}},
    {"op": "act", "request": {"action": "clik", "target": {"ref": "e1"}}}
  ]
}`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil {
		t.Fatal("loaded")
	}
	list, more := AllErrors(err, 50)
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		path + `: fixture.extra: unknown field "extra" (invalid_request)`,
		path + `: operations[1].request.url: got number, want string or object (invalid_request)`,
		path + `: operations[2].request.action: value must be one of 'click'`,
	}
	if more != 0 || len(got) != len(want) {
		t.Fatalf("got %d (+%d):\n%s", len(got), more, strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("[%d] = %s\nwant %s…", i, got[i], want[i])
		}
	}
	if list[0] != err {
		t.Errorf("the strict refusal %v is not the one listed at its path", err)
	}
	list, more = AllErrors(err, 2)
	if len(list) != 2 || more != 1 {
		t.Errorf("bounded to 2: %d listed, %d more", len(list), more)
	}
}

// A value no branch of an anyOf takes is one line saying what was wanted; paths quote keys
// that are not identifiers and keep an object's key "0" a key.
func TestSchemaErrorsPathsAndAlternatives(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"version":1,"id":"a","fixture":5,"operations":[{"op":"read"}]}`, "fixture: got number, want object or null"},
		{`{"version":1,"id":"a","hooks":{"setup":{"command":"x","env":{"A.B":"v"}}},"operations":[{"op":"read"}]}`, `hooks.setup.env["A.B"]: field name "A.B": `},
		{`{"version":1,"id":"a","operations":[{"op":"read","0":1}]}`, `operations[0]["0"]: unknown field "0"`},
		{`{"id":"a","operations":[]}`, `: missing required field "version"`},
	}
	for _, c := range cases {
		errs := SchemaErrors([]byte(c.doc))
		var got []string
		for _, e := range errs {
			got = append(got, fmt.Sprintf("%s: %s", e.Path, e.Message))
		}
		if len(got) == 0 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%s:\n got %q\nwant %q…", c.doc, got, c.want)
		}
	}
	if errs := SchemaErrors([]byte(`{"version":1,"id":"a","operations":[{"op":"read"}]}`)); len(errs) != 0 {
		t.Errorf("a valid file: %v", errs)
	}
}
