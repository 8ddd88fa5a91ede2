package sessions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

func TestSplitVariables(t *testing.T) {
	op, vs, err := splitVariables(json.RawMessage(`{"act":"Type %user% into Username","variables":{"user":"alice","password":{"env":"PORTAL_PASSWORD"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(op), "variables") || strings.Contains(string(op), "alice") {
		t.Errorf("the operation kept its variables: %s", op)
	}
	if vs["user"] != (variable{literal: "alice"}) || vs["password"] != (variable{env: "PORTAL_PASSWORD"}) {
		t.Errorf("variables %+v", vs)
	}
	if src := vs.sources(); src["user"] != "" || src["password"] != "PORTAL_PASSWORD" || len(src) != 2 {
		t.Errorf("the history's sources %v keep a value or lose a name", src)
	}
	for in, msg := range map[string]string{
		`{"click":"e1","variables":[1]}`:                     "variables: expected an object",
		`{"click":"e1","variables":{"1x":"a"}}`:              "variables.1x: expected a variable name",
		`{"click":"e1","variables":{"u":{"env":"a b"}}}`:     `variables.u: expected a string or {"env"`,
		`{"click":"e1","variables":{"u":{"env":"A","x":1}}}`: `variables.u: expected a string or {"env"`,
	} {
		_, _, err := splitVariables(json.RawMessage(in))
		if err == nil || AsError(err).Code != CodeInvalidInput || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want invalid_input %q", in, err, msg)
		}
	}
}

func TestTypedTextTakesVariables(t *testing.T) {
	vs := variables{"user": {literal: "alice"}, "password": {env: "PORTAL_PASSWORD"}}
	entry := func(text string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"op": "act", "request": map[string]any{"action": "type", "target": map[string]string{"ref": "e1"}, "text": text}})
		return b
	}
	cases := []struct{ text, want, textVar string }{
		{"%user%", `"text":"alice"`, "user"},
		{"%password%", `"text":{"env":"PORTAL_PASSWORD"}`, ""},
		{"hi %user%!", `"text":"hi alice!"`, ""},
		{"100%", `"text":"100%"`, ""},
		{"%other%", `"text":"%other%"`, ""},
	}
	for _, c := range cases {
		out, textVar, err := typedText(entry(c.text), vs)
		if err != nil || !strings.Contains(string(out), c.want) || textVar != c.textVar {
			t.Errorf("%q: %s, %q, %v; want %s and %q", c.text, out, textVar, err, c.want, c.textVar)
		}
	}
	if _, _, err := typedText(entry("pw: %password%"), vs); err == nil || !strings.Contains(err.Error(), "secret") {
		t.Errorf("a secret inside other text: %v", err)
	}
	x := textAsVar(json.RawMessage(`{"op":"act","request":{"action":"type","text":"alice"}}`), "user")
	if !strings.Contains(string(x), `"text":{"var":"user"}`) || strings.Contains(string(x), "alice") {
		t.Errorf("textAsVar: %s", x)
	}
}

// An act in words with variables exports its words, its recording and its variables by
// source; a variable whose value the action never used gets a digest of the value; one whose
// value is in what the action acted on leaves the act without a recording.
func TestWordsExportWithVariables(t *testing.T) {
	entry := json.RawMessage(`{"op":"task","request":{"goal":"g","maxActions":1}}`)
	env := map[string]string{"PORTAL_PASSWORD": "correct-horse-42"}
	vs := variables{"user": {literal: "alice"}, "password": {env: "PORTAL_PASSWORD"}, "team": {literal: "blue"}}
	export := func(words string, a transport.TaskAction) (map[string]json.RawMessage, map[string]string, bool) {
		t.Helper()
		defaults := map[string]string{}
		x, replays, ok := wordsExport(entry, words, vs.named(words), &transport.TaskResult{Actions: []transport.TaskAction{a}}, env, defaults)
		if !ok {
			t.Fatalf("%s: not exported", words)
		}
		if strings.Contains(string(x), "correct-horse-42") || strings.Contains(string(x), "alice") {
			t.Errorf("%s: the export holds a value: %s", words, x)
		}
		var m map[string]json.RawMessage
		_ = json.Unmarshal(x, &m)
		return m, defaults, replays
	}

	m, defaults, replays := export("Type %password% into Password", transport.TaskAction{
		Receipt: transport.Receipt{Action: "type", Role: "textbox", Name: "Password"}, Text: "%password%", Variables: []string{"password"}})
	if !replays || string(m["words"]) != `"Type %password% into Password"` || !strings.Contains(string(m["request"]), `"text":{"env":"PORTAL_PASSWORD"}`) ||
		string(m["variables"]) != `{"password":{"env":"PORTAL_PASSWORD"}}` || m["replayIf"] != nil || len(defaults) != 0 {
		t.Errorf("a typed secret: %v %v", m, defaults)
	}

	m, defaults, replays = export("Type %user% in the %team% box", transport.TaskAction{
		Receipt: transport.Receipt{Action: "type", Role: "textbox", Name: "Team box"}, Text: "%user%", Variables: []string{"user"}})
	var conds []scenario.ReplayCondition
	_ = json.Unmarshal(m["replayIf"], &conds)
	if !replays || !strings.Contains(string(m["request"]), `"text":{"var":"user"}`) || defaults["user"] != "alice" || defaults["team"] != "blue" ||
		len(conds) != 1 || conds[0].Variable != "team" {
		t.Fatalf("a typed literal and an unused one: %v %v", m, defaults)
	}
	if ok, err := scenario.DigestMatches(conds[0].Digest, "blue"); !ok || err != nil {
		t.Errorf("the digest is not of the value the session gave: %s", conds[0].Digest)
	}

	m, _, replays = export("Click the row of %user%", transport.TaskAction{
		Receipt: transport.Receipt{Action: "click", Role: "row", Name: "alice"}, Variables: []string{"user"}})
	if replays || m["request"] != nil || string(m["words"]) != `"Click the row of %user%"` {
		t.Errorf("an action on the value's element kept a recording: %v", m)
	}
}

// A literal secret is refused however the re-encoded operation escapes it.
func TestAdmitSecretsSeesEscapedValues(t *testing.T) {
	h := &Host{secrets: secrets.New()}
	const secret = `pw<&>"42x`
	if err := h.secrets.Add(secret); err != nil {
		t.Fatal(err)
	}
	entry, _ := json.Marshal(map[string]any{"op": "assert", "request": map[string]any{"kind": "textContains", "value": "x" + secret}})
	if err := h.admitSecrets(entry, nil, nil); err == nil || AsError(err).Code != CodeInvalidInput {
		t.Fatalf("an escaped literal secret: %v", err)
	}
	if err := h.admitSecrets(json.RawMessage(`{"op":"read"}`), nil, nil); err != nil {
		t.Fatalf("no secret: %v", err)
	}
}

// A by-ref act needs an element with a name: it is kept and exported by role and name.
func TestByRefActNeedsANamedElement(t *testing.T) {
	h := &Host{refs: refBook{"e4": {"button", ""}, "e5": {"button", "Go"}}}
	for ref, refused := range map[string]bool{"e4": true, "e5": false, "e9": false} {
		entry, err := normalize(json.RawMessage(`{"click":"` + ref + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		err = h.named(entry)
		if refused != (err != nil) || refused && (AsError(err).Code != CodeInvalidInput || !strings.Contains(err.Error(), "no accessible name")) {
			t.Errorf("%s: %v, want refused %v", ref, err, refused)
		}
	}
}
