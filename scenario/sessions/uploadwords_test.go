package sessions

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReadUploadWords: into is words unless it has an outline ref's shape; the words are
// bounded; withRef is the by-ref shorthand with everything else as written.
func TestReadUploadWords(t *testing.T) {
	for _, c := range []struct {
		op    string
		words string // "" : not an upload into words
		err   bool
	}{
		{op: `{"upload":{"into":"e5","files":["a.txt"]}}`},
		{op: `{"upload":{"into":"[e5]","files":["a.txt"]}}`}, // the outline's spelling of the ref
		{op: `{"upload":{"into":"e12","files":["a.txt"]},"when":"x"}`},
		{op: `{"click":"e5"}`},
		{op: `{"op":"act","request":{"action":"upload","target":{"ref":"e5"},"files":["a.txt"]}}`},
		{op: `{"upload":{"into":"the Receipt input","files":["a.txt"]}}`, words: "the Receipt input"},
		{op: `{"upload":{"into":"E5","files":["a.txt"]}}`, words: "E5"},
		{op: `{"upload":{"into":"e5 input","files":["a.txt"]}}`, words: "e5 input"},
		{op: `{"upload":{"into":"  ","files":["a.txt"]}}`, err: true},
		{op: `{"upload":{"into":"` + strings.Repeat("w", 501) + `","files":["a.txt"]}}`, err: true},
	} {
		u, err := readUploadWords(json.RawMessage(c.op))
		switch {
		case c.err != (err != nil):
			t.Errorf("%s: error %v, want error %v", c.op, err, c.err)
		case c.words == "" && u != nil:
			t.Errorf("%s: read as an upload into words %q", c.op, u.words)
		case c.words != "" && (u == nil || u.words != c.words):
			t.Errorf("%s: %+v, want words %q", c.op, u, c.words)
		}
	}
	u, _ := readUploadWords(json.RawMessage(`{"id":"up","upload":{"into":"the Receipt input","files":["a.txt"]},"when":"a receipt is asked for","timeout":"5s"}`))
	var got map[string]any
	if err := json.Unmarshal(u.withRef("e7"), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if want := `{"id":"up","timeout":"5s","upload":{"files":["a.txt"],"into":"e7"},"when":"a receipt is asked for"}`; string(b) != want {
		t.Errorf("withRef: %s, want %s", b, want)
	}
}
