package sessions

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeShorthands(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"click":"e12"}`, `{"op":"act","request":{"action":"click","target":{"ref":"e12"}}}`},
		{`{"check":"e4","id":"agree"}`, `{"id":"agree","op":"act","request":{"action":"check","target":{"ref":"e4"}}}`},
		{`{"type":{"into":"e7","text":{"env":"PW"}},"timeout":"5s"}`, `{"op":"act","request":{"action":"type","target":{"ref":"e7"},"text":{"env":"PW"}},"timeoutMs":5000}`},
		{`{"select":{"in":"e9","option":"Blue"},"when":{"kind":"title","value":"Settings"}}`, `{"op":"act","request":{"action":"select","option":"Blue","target":{"ref":"e9"}},"when":{"kind":"title","value":"Settings"}}`},
		{`{"upload":{"into":"e5","files":["a.txt"]},"timeout":2500}`, `{"op":"act","request":{"action":"upload","files":["a.txt"],"target":{"ref":"e5"}},"timeoutMs":2500}`},
		{`{"op":"read","timeout":3000}`, `{"op":"read","timeoutMs":3000}`},
		{`{"hover":"e3"}`, `{"op":"act","request":{"action":"hover","target":{"ref":"e3"}}}`},
		// A ref copied from the outline with its brackets.
		{`{"click":"[e12]"}`, `{"op":"act","request":{"action":"click","target":{"ref":"e12"}}}`},
		{`{"upload":{"into":"[e5]","files":["a.txt"]}}`, `{"op":"act","request":{"action":"upload","files":["a.txt"],"target":{"ref":"e5"}}}`},
		{`{"dblclick":"e3"}`, `{"op":"act","request":{"action":"dblclick","target":{"ref":"e3"}}}`},
		{`{"fill":{"into":"e7","text":"ada"}}`, `{"op":"act","request":{"action":"fill","target":{"ref":"e7"},"text":"ada"}}`},
		{`{"press":{"on":"e7","key":"Control+A"}}`, `{"op":"act","request":{"action":"press","key":"Control+A","target":{"ref":"e7"}}}`},
	}
	for _, c := range cases {
		got, err := normalize(json.RawMessage(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var g, w any
		_ = json.Unmarshal(got, &g)
		_ = json.Unmarshal([]byte(c.want), &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestNormalizeRefusals(t *testing.T) {
	cases := []struct{ in, code, msg string }{
		{`[1]`, CodeInvalidInput, "not a JSON object"},
		{`{"tap":"e1"}`, CodeInvalidInput, `unknown operation ["tap"]`},
		{`{"click":"e1","check":"e2"}`, CodeInvalidInput, "unknown operation"},
		{`{"when":{"kind":"title","value":"x"}}`, CodeInvalidInput, "names no operation"},
		{`{"click":12}`, CodeInvalidInput, "outline ref"},
		{`{"type":{"into":"e1"}}`, CodeInvalidInput, `missing "text"`},
		{`{"type":{"into":"e1","text":"x","extra":1}}`, CodeInvalidInput, `unknown field "extra"`},
		{`{"click":"e1","timeout":-5}`, CodeInvalidInput, "timeout"},
		{`{"op":"read","timeout":5,"timeoutMs":5}`, CodeInvalidInput, "not both"},
		{`{"op":"captureEvidence","request":{}}`, CodeInvalidInput, "screenshot"},
		{`{"act":"click the blue button"}`, CodeModelRequired, "needs a model"},
	}
	for _, c := range cases {
		_, err := normalize(json.RawMessage(c.in))
		b := AsError(err)
		if err == nil || b.Code != c.code || !strings.Contains(b.Message, c.msg) {
			t.Errorf("%s: got %v, want %s containing %q", c.in, err, c.code, c.msg)
		}
	}
}

func TestEnvNames(t *testing.T) {
	got := envNames(json.RawMessage(`{"type":{"into":"e1","text":{"env":"PW"}},"when":{"kind":"title","value":"x"},"x":[{"env":"B"},{"env":"C","other":1}]}`))
	if strings.Join(got, ",") != "PW,B" && strings.Join(got, ",") != "B,PW" {
		t.Fatalf("got %v, want PW and B (an object with more than env is not a reference)", got)
	}
	lookup := func(k string) (string, bool) {
		switch k {
		case "PW":
			return "s3cret-value", true
		case "EARLIER":
			return "earlier-value", true
		}
		return "", false
	}
	vals := EnvValues(Record{}, json.RawMessage(`{"text":{"env":"PW"},"t2":{"env":"UNSET_X"}}`), lookup)
	if len(vals) != 1 || vals["PW"] != "s3cret-value" {
		t.Fatalf("EnvValues = %v, want only PW", vals)
	}
	// A variable an earlier do gave from the environment is read on every later do.
	vals = EnvValues(Record{EnvVariables: map[string]string{"password": "EARLIER"}}, json.RawMessage(`{"click":"e1"}`), lookup)
	if len(vals) != 1 || vals["EARLIER"] != "earlier-value" {
		t.Fatalf("EnvValues = %v, want only EARLIER", vals)
	}
}
