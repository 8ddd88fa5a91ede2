package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// wordsFile is a scenario whose second operation is ops (an act in words to check).
func wordsFile(op string) []byte {
	return []byte(`{"version": 1, "id": "w", "fixture": {"baseUrl": "http://127.0.0.1:4310"}, "variables": {"user": "alice"},
  "operations": [{"op": "navigate", "request": {"url": "/"}}, ` + op + `]}`)
}

const goodDigest = "sha256:00112233445566778899aabbccddeeff:0000000000000000000000000000000000000000000000000000000000000000"

// TestParseActWords: the act-with-words form loads (with and without a recording), and
// what breaks its rules is refused with the field's path.
func TestParseActWords(t *testing.T) {
	rec := `"request": {"action": "click", "target": {"role": "button", "name": "Sign in", "exact": true}}`
	for _, ok := range []string{
		`{"op": "act", "words": "Click the Sign in button", ` + rec + `}`,
		`{"op": "act", "words": "Type %password%", "variables": {"password": {"env": "PORTAL_PASSWORD"}}}`,
		`{"op": "act", "words": "Click %user%", "variables": {"user": {"var": "user"}}, "replayIf": [{"variable": "user", "digest": "` + goodDigest + `"}], ` + rec + `}`,
	} {
		l, err := Parse(wordsFile(ok))
		if err != nil {
			t.Errorf("%s: %v", ok, err)
			continue
		}
		if op := l.Operations[1]; op.Variables["user"] != nil && op.Variables["user"].Value() != "alice" {
			t.Errorf("the {\"var\"} variable is %q, want the file's alice", op.Variables["user"].Value())
		}
	}
	for _, c := range []struct{ op, path, msg string }{
		{`{"op": "navigate", "words": "Go home", "request": {"url": "/"}}`, "operations[1].words", `"words" goes with op "act"`},
		{`{"op": "act", "words": "Click", "replayIf": [{"variable": "user", "digest": "` + goodDigest + `"}], "variables": {"user": "alice"}}`, "operations[1].replayIf", `needs "request"`},
		{`{"op": "act", "words": "Click", "replayIf": [{"variable": "nobody", "digest": "` + goodDigest + `"}], "variables": {"user": "alice"}, ` + rec + `}`, "operations[1].replayIf[0].variable", "not one of the act's variables"},
		{`{"op": "act", "words": "Click", "replayIf": [{"variable": "user", "digest": "sha256:zz:00"}], "variables": {"user": "alice"}, ` + rec + `}`, "operations[1].replayIf[0].digest", "hex"},
		{`{"op": "act", "variables": {"user": "alice"}, ` + rec + `}`, "operations[1].variables", `goes with "words"`},
		{`{"op": "act", "words": "Click", "variables": {"bad-name": "x"}}`, "operations[1].variables", "variable name"},
		{`{"op": "act", "words": "   ", ` + rec + `}`, "operations[1].words", "characters"},
	} {
		_, err := Parse(wordsFile(c.op))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.path || !strings.Contains(ve.Message, c.msg) {
			t.Errorf("%s: err %v, want %s: …%s…", c.op, err, c.path, c.msg)
		}
	}
}

// TestVariableDigest: a digest matches its value only, and a malformed one is an error.
func TestVariableDigest(t *testing.T) {
	salt := bytes.Repeat([]byte{0xab}, DigestSaltBytes)
	d := VariableDigest("alice", salt)
	if !strings.HasPrefix(d, "sha256:"+strings.Repeat("ab", DigestSaltBytes)+":") || len(d) != len("sha256:")+32+1+64 {
		t.Fatalf("digest %q has the wrong shape", d)
	}
	if ok, err := DigestMatches(d, "alice"); !ok || err != nil {
		t.Errorf("alice: %v %v, want a match", ok, err)
	}
	if ok, err := DigestMatches(d, "bob"); ok || err != nil {
		t.Errorf("bob: %v %v, want no match", ok, err)
	}
	if VariableDigest("alice", bytes.Repeat([]byte{1}, DigestSaltBytes)) == d {
		t.Error("another salt gave the same digest")
	}
	if _, err := DigestMatches("sha256:00:11", "alice"); err == nil {
		t.Error("a malformed digest was accepted")
	}
}

// TestActRecording: placeholders map to their variable's source; a recording that would
// hold a literal variable's value, or a placeholder inside other text, is not replayable.
func TestActRecording(t *testing.T) {
	vars := map[string]*transport.Text{"password": transport.FromEnv("PORTAL_PASSWORD"), "user": transport.Literal("alice")}
	typed := func(text string, used ...string) transport.TaskAction {
		return transport.TaskAction{Receipt: transport.Receipt{Action: "type", Role: "textbox", Name: "Password"}, Text: text, Variables: used}
	}
	for _, c := range []struct {
		a    transport.TaskAction
		want string
	}{
		{typed("%password%", "password"), `{"op":"act","request":{"action":"type","target":{"exact":true,"name":"Password","role":"textbox"},"text":{"env":"PORTAL_PASSWORD"}}}`},
		{typed("%user%", "user"), `{"op":"act","request":{"action":"type","target":{"exact":true,"name":"Password","role":"textbox"},"text":{"var":"user"}}}`},
		{typed("hello"), `{"op":"act","request":{"action":"type","target":{"exact":true,"name":"Password","role":"textbox"},"text":"hello"}}`},
		{transport.TaskAction{Receipt: transport.Receipt{Action: "navigate"}, URL: "http://127.0.0.1:4310/next"}, `{"op":"navigate","request":{"url":"http://127.0.0.1:4310/next"}}`},
		{typed("x%password%", "password"), ""},
		{transport.TaskAction{Receipt: transport.Receipt{Action: "click", Role: "link", Name: "Profile of alice"}, Variables: []string{"user"}}, ""},
	} {
		got, ok := ActRecording(c.a, vars)
		if (c.want == "") == ok || (ok && string(got) != c.want) {
			t.Errorf("%+v: got %s (%v), want %s", c.a, got, ok, c.want)
		}
	}
}

// TestUpdateHealedKeepsTheRestOfTheFile: --update's splice replaces only the request (a
// {"var"} text as the entry writes its variable), drops the replayIf entries the new
// recording follows, and adds a request to a words-only act.
func TestUpdateHealedKeepsTheRestOfTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	src := `{
  "version": 1,
  "operations": [
    {"op": "act", "words": "Type %user%",   "variables": {"user": {"var": "login"}, "pin": "12345"},
     "replayIf": [{"variable": "user", "digest": "` + goodDigest + `"}, {"variable": "pin", "digest": "` + goodDigest + `"}],
     "request": {"action": "type", "target": {"role": "textbox", "name": "User"}, "text": "alice"}},
    {"op": "act", "words": "Press <Enter>"}
  ]
}
`
	if err := os.WriteFile(file, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	rep := &Report{Scenarios: []ScenarioReport{{Operations: []OperationReport{
		{Healed: &Healed{Recording: json.RawMessage(`{"action":"type","target":{"exact":true,"name":"Login","role":"textbox"},"text":{"var":"user"}}`), file: file, at: 0, uses: []string{"user"}}},
		{Healed: &Healed{Recording: json.RawMessage(`{"action":"press","key":"Enter","target":{"exact":true,"name":"Search","role":"searchbox"}}`), file: file, at: 1}},
	}}}}
	res := UpdateHealed(rep)
	if len(res) != 1 || res[0].Err != nil || res[0].Recordings != 2 {
		t.Fatalf("update: %+v", res)
	}
	got, _ := os.ReadFile(file)
	want := strings.NewReplacer(
		`"request": {"action": "type", "target": {"role": "textbox", "name": "User"}, "text": "alice"}`,
		`"request": {"action": "type", "target": {"role": "textbox", "name": "Login", "exact": true}, "text": {"var": "login"}}`,
		`"replayIf": [{"variable": "user", "digest": "`+goodDigest+`"}, {"variable": "pin", "digest": "`+goodDigest+`"}]`,
		`"replayIf": [{"variable": "pin", "digest": "`+goodDigest+`"}]`,
		`{"op": "act", "words": "Press <Enter>"}`,
		`{"request": {"action": "press", "target": {"role": "searchbox", "name": "Search", "exact": true}, "key": "Enter"}, "op": "act", "words": "Press <Enter>"}`,
	).Replace(src)
	if string(got) != want {
		t.Errorf("updated:\n%s\nwant:\n%s", got, want)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640", fi.Mode().Perm())
	}
}
