package strictjson

import (
	"errors"
	"strings"
	"testing"
)

func nest(open, close string, n int) string {
	return strings.Repeat(open, n) + strings.Repeat(close, n)
}

func manyKeys(n int, last string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		b.WriteString(`"k`)
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26))
		b.WriteString(`":1,`)
	}
	b.WriteString(last)
	b.WriteString("}")
	return b.String()
}

// TestRefusals holds one case per rule: the exact path and a telling part of the message.
func TestRefusals(t *testing.T) {
	req := func() any { return new(request) }
	cases := []struct {
		name     string
		in       string
		into     func() any
		path     string
		message  string
		expected string // checked when not empty
	}{
		// Syntax.
		{"empty input", ``, req, "", "invalid JSON at offset 0: unexpected end of input", ""},
		{"only whitespace", " \r\n", req, "", "invalid JSON at offset 3", ""},
		{"missing value", `{"url":}`, req, "url", "invalid JSON at offset 7", "a JSON value"},
		{"missing colon", `{"url" "a"}`, req, "", "invalid JSON at offset 7", "':'"},
		{"unquoted key", `{url:"a"}`, req, "", "invalid JSON at offset 1", "a string key"},
		{"trailing comma", `{"url":"a",}`, req, "", "invalid JSON at offset 11", "a string key"},
		{"single quotes", `{'url':"a"}`, req, "", "invalid JSON at offset 1", ""},
		{"bad literal", `{"url":"a","flag":tru}`, req, "flag", "invalid JSON at offset 21", "true"},
		{"leading zero", `{"timeoutMs":01}`, req, "", "invalid JSON at offset 14", "',' or '}'"},
		{"bare minus", `{"timeoutMs":-}`, req, "timeoutMs", "invalid JSON at offset 14", "a digit"},
		{"dot without digits", `{"ratio":1.}`, req, "ratio", "invalid JSON at offset 11", "a digit"},
		{"exponent without digits", `{"ratio":1e+}`, req, "ratio", "invalid JSON at offset 12", "a digit"},
		{"control character in string", "{\"url\":\"a\nb\"}", req, "url", "invalid JSON at offset 9", ""},
		{"bad escape", `{"url":"a\qb"}`, req, "url", "invalid JSON at offset 10", "an escape character"},
		{"short unicode escape", `{"url":"\u12"}`, req, "url", "invalid JSON at offset 12", "a hexadecimal digit"},
		{"unterminated string", `{"url":"abc`, req, "url", "unexpected end of input", ""},
		{"unterminated array", `{"args":["a"`, req, "args", "unexpected end of input", "',' or ']'"},
		{"array element error", `{"args":["a",]}`, req, "args[1]", "invalid JSON at offset 13", ""},
		{"trailing data", `{"url":"a"} x`, req, "", "trailing data after the JSON value at offset 12", ""},
		{"two values", `{"url":"a"}{}`, req, "", "trailing data after the JSON value", ""},

		// UTF-8.
		{"invalid UTF-8 in string", "{\"url\":\"a\xffb\"}", req, "url", "invalid UTF-8", "valid UTF-8"},
		{"invalid UTF-8 in nested string", "{\"url\":\"a\",\"args\":[\"x\",\"\xc3\"]}", req, "args[1]", "invalid UTF-8", ""},
		{"invalid UTF-8 in key", "{\"u\xffl\":1}", req, "", "invalid UTF-8 in object key", ""},
		{"invalid UTF-8 outside strings", "{\xff}", req, "", "invalid UTF-8 at offset 1", ""},
		{"invalid UTF-8 after the value", "{\"url\":\"a\"}\xfe", req, "", "invalid UTF-8 at offset 11", ""},
		{"UTF-8 encoded surrogate", "{\"url\":\"\xed\xa0\x80\"}", req, "url", "invalid UTF-8", ""},
		{"overlong encoding", "{\"url\":\"\xc0\xaf\"}", req, "url", "invalid UTF-8", ""},
		{"lone high surrogate escape", `{"url":"\ud800"}`, req, "url", `invalid UTF-8 in string: unpaired surrogate escape \ud800`, ""},
		{"lone low surrogate escape", `{"url":"\udc00x"}`, req, "url", `unpaired surrogate escape \udc00`, ""},
		{"high surrogate then letter", `{"url":"\ud800\u0041"}`, req, "url", "unpaired surrogate", ""},
		{"two high surrogates", `{"url":"\ud800\ud800"}`, req, "url", "unpaired surrogate", ""},
		{"surrogate escape in key", `{"\ud800":1}`, req, "", "invalid UTF-8 in object key string", ""},

		// Duplicate keys.
		{"duplicate key", `{"url":"a","url":"b"}`, req, "", `duplicate key "url"`, ""},
		{"duplicate key, nested", `{"url":"a","next":{"url":"a","tab":"1","url":"b"}}`, req, "next", `duplicate key "url"`, ""},
		{"keys differing by case", `{"url":"a","next":{"id":1,"ID":2}}`, req, "next", `duplicate key "ID" (the same as "id" apart from letter case)`, ""},
		{"keys differing by Unicode case", `{"env":{"straße":"1","STRASSE":"2","Straße":"3"}}`, req, "env", `duplicate key "Straße"`, ""},
		{"keys equal after unescaping", `{"url":"a","\u0075rl":"b"}`, req, "", `duplicate key "url"`, ""},
		{"duplicate in a map", `{"url":"a","env":{"A":"1","a":"2"}}`, req, "env", `duplicate key "a"`, ""},
		{"duplicate in a big object", manyKeys(40, `"KAA":2`), func() any { return new(map[string]int) }, "", `duplicate key "KAA" (the same as "kaa"`, ""},
		{"case duplicate in a big object", manyKeys(40, `"\u212aaa":2`), func() any { return new(map[string]int) }, "", `(the same as "kaa" apart from letter case)`, ""},
		{"duplicate in RawMessage", `{"url":"a","raw":{"x":1,"x":2}}`, req, "raw", `duplicate key "x"`, ""},

		// Field matching.
		{"key in the wrong case", `{"URL":"a"}`, req, "URL", `unknown field "URL"`, "one of the fields: url, tab, timeoutMs, small, count, ratio, flag, env, args, steps, next, raw, pair, data, num, level, stamp, NoTag"},
		{"unknown field", `{"url":"a","colour":"red"}`, req, "colour", `unknown field "colour"`, ""},
		{"unknown nested field", `{"url":"a","steps":[{"name":"x"},{"name":"y","Delay":1}]}`, req, "steps[1].Delay", `unknown field "Delay"`, "one of the fields: name, delay"},
		{"dash-tagged field is invisible", `{"url":"a","Hidden":"x"}`, req, "Hidden", `unknown field "Hidden"`, ""},
		{"dash key", `{"url":"a","-":"x"}`, req, `["-"]`, `unknown field "-"`, ""},
		{"untagged field in the wrong case", `{"url":"a","notag":"x"}`, req, "notag", `unknown field "notag"`, ""},
		{"unexported field", `{"url":"a","private":"x"}`, req, "private", `unknown field "private"`, ""},
		{"unknown field with odd key", `{"url":"a","we ird":1}`, req, `["we ird"]`, `unknown field "we ird"`, ""},
		{"field of an empty struct", `{"a":1}`, func() any { return new(struct{}) }, "a", `unknown field "a"`, "an empty object (no fields)"},

		// Required fields.
		{"missing required field", `{}`, req, "", `missing required field "url"`, "a value"},
		{"missing required nested field", `{"url":"a","steps":[{"name":"x"},{"delay":1}]}`, req, "steps[1]", `missing required field "name"`, "a value"},
		{"required field is null", `{"url":null}`, req, "url", `required field "url" is null`, "string"},
		{"required pointer-typed field is null", `{"password":null}`, func() any { return new(login) }, "password", `required field "password" is null`, ""},

		// Types.
		{"number for string", `{"url":1}`, req, "url", "expected string, got number", "string"},
		{"null for string", `{"url":"a","tab":null}`, req, "tab", "expected string, got null", "string"},
		{"string for bool", `{"url":"a","flag":"true"}`, req, "flag", "expected boolean, got string", "boolean"},
		{"number for bool", `{"url":"a","flag":1}`, req, "flag", "expected boolean, got number", ""},
		{"string for int", `{"url":"a","timeoutMs":"5"}`, req, "timeoutMs", "expected integer, got string", "integer"},
		{"fraction for int", `{"url":"a","timeoutMs":1.5}`, req, "timeoutMs", "expected integer, got a number with a fraction or exponent", ""},
		{"integral fraction for int", `{"url":"a","timeoutMs":1.0}`, req, "timeoutMs", "fraction or exponent", ""},
		{"exponent for int", `{"url":"a","timeoutMs":1e2}`, req, "timeoutMs", "fraction or exponent", ""},
		{"int8 too big", `{"url":"a","small":128}`, req, "small", "integer out of range for int8", ""},
		{"int8 too small", `{"url":"a","small":-129}`, req, "small", "integer out of range for int8", ""},
		{"int64 overflow", `{"i64":9223372036854775808}`, func() any { return new(ints) }, "i64", "integer out of range for int64", ""},
		{"negative uint", `{"url":"a","count":-1}`, req, "count", "expected non-negative integer, got a negative number", "non-negative integer"},
		{"uint16 too big", `{"url":"a","count":65536}`, req, "count", "integer out of range for uint16", ""},
		{"uint64 overflow", `{"u64":18446744073709551616}`, func() any { return new(ints) }, "u64", "integer out of range for uint64", ""},
		{"float32 overflow", `{"f32":1e39}`, func() any { return new(ints) }, "f32", "number out of range for float32", ""},
		{"float64 overflow", `{"f64":-1e309}`, func() any { return new(ints) }, "f64", "number out of range for float64", ""},
		{"string for float", `{"f64":"1"}`, func() any { return new(ints) }, "f64", "expected number, got string", "number"},
		{"object for slice", `{"url":"a","args":{}}`, req, "args", "expected array, got object", "array"},
		{"wrong slice element", `{"url":"a","args":["a",2]}`, req, "args[1]", "expected string, got number", ""},
		{"null slice element", `{"url":"a","args":["a",null]}`, req, "args[1]", "expected string, got null", ""},
		{"array for struct", `{"url":"a","next":[]}`, req, "next", "expected object, got array", "object"},
		{"array for map", `{"url":"a","env":[]}`, req, "env", "expected object, got array", "object"},
		{"wrong map value", `{"url":"a","env":{"HOME":1}}`, req, "env.HOME", "expected string, got number", ""},
		{"wrong map value, odd key", `{"url":"a","env":{"we ird":1}}`, req, `env["we ird"]`, "expected string, got number", ""},
		{"wrong map value, digit key", `{"url":"a","env":{"1a":1}}`, req, `env["1a"]`, "expected string, got number", ""},
		{"deep path", `{"url":"a","next":{"url":"b","steps":[{"name":"x","delay":"1"}]}}`, req, "next.steps[0].delay", "expected number, got string", ""},
		{"short fixed array", `{"url":"a","pair":[1]}`, req, "pair", "expected an array of 2 elements, got 1", ""},
		{"long fixed array", `{"url":"a","pair":[1,2,3]}`, req, "pair", "expected an array of 2 elements, got 3", ""},
		{"null fixed array", `{"url":"a","pair":null}`, req, "pair", "expected array, got null", ""},
		{"invalid base64", `{"url":"a","data":"!!!"}`, req, "data", "invalid value: not valid base64", ""},
		{"array for bytes", `{"url":"a","data":[1,2]}`, req, "data", "expected base64 string, got array", ""},
		{"string for json.Number", `{"url":"a","num":"1"}`, req, "num", "expected number, got string", "number"},
		{"number for TextUnmarshaler", `{"url":"a","level":1}`, req, "level", "expected string, got number", "string"},
		{"null for TextUnmarshaler", `{"url":"a","level":null}`, req, "level", "expected string, got null", ""},
		{"TextUnmarshaler refuses", `{"url":"a","level":"medium"}`, req, "level", "invalid value: not a valid strictjson.level", ""},
		{"UnmarshalJSON refuses", `{"url":"a","stamp":"hunter2"}`, req, "stamp", "invalid value: not a valid strictjson.stamp", ""},
		{"interface field", `{"value":1}`, func() any { return new(untyped) }, "value", "cannot decode into Go type interface {}", ""},
		{"interface field, null", `{"value":null}`, func() any { return new(untyped) }, "value", "not supported", ""},
		{"root interface", `1`, func() any { return new(any) }, "", "cannot decode into Go type interface {}", ""},
		{"int map keys", `{"m":{"1":"a"}}`, func() any { return new(intKeys) }, "m", "only maps with plain string keys", ""},
		{",string option", `{"n":"1"}`, func() any { return new(quoted) }, "n", "the ,string tag option", ""},
		{"wrong root type", `[]`, req, "", "expected object, got array", ""},
		{"null root struct", `null`, req, "", "expected object, got null", ""},

		// Depth: the array past budgets.JSONNesting is refused wherever it is.
		{"too deep", nest("[", "]", maxDepth+1), func() any { return new([]any) }, strings.Repeat("[0]", maxDepth), "nested too deeply (more than 512 levels", ""},
		{"too deep objects", strings.Repeat(`{"next":`, maxDepth+1) + "null" + strings.Repeat("}", maxDepth+1), func() any { return new(deep) }, strings.TrimPrefix(strings.Repeat(".next", maxDepth), "."), "nested too deeply", ""},

		// Embedded structs.
		{"shadowed field keeps the outer type", `{"url":"u","tab":"x"}`, func() any { return new(outer) }, "tab", "expected object, got string", ""},
		{"promoted required field", `{"tab":{"source":"s"}}`, func() any { return new(outer) }, "", `missing required field "url"`, ""},
		{"ambiguous fields are invisible", `{"Name":"x"}`, func() any { return new(ambiguous) }, "Name", `unknown field "Name"`, "one of the fields: other"},
		{"embedded pointer's required field", `{"extra":"x"}`, func() any { return new(viaPointer) }, "", `missing required field "kind"`, ""},
		{"nil pointer to unexported embedded struct", `{"id":"x"}`, func() any { return new(viaUnexportedPointer) }, "id", "cannot set embedded pointer to unexported struct", ""},

		// Strict Unmarshalers.
		{"union: wrong kind", `{"password":5}`, func() any { return new(login) }, "password", "expected object, got number", ""},
		{"union: unknown field", `{"password":{"ENV":"X"}}`, func() any { return new(login) }, "password.ENV", `unknown field "ENV"`, "one of the fields: env"},
		{"union: duplicate caught first", `{"password":{"env":"X","env":"Y"}}`, func() any { return new(login) }, "password", `duplicate key "env"`, ""},
		{"union: accepted", `{"password":"x","backup":null,"user":"u"}`, func() any { return new(login) }, "", "", ""},
		{"union: plain error", `{"password":"x","other":null}`, func() any { return new(login) }, "other", "invalid value: a secret cannot be null", ""},
		{"union: plain error on a value", `{"password":"x","backup":{"env":"A"},"user":"u","x":1}`, func() any { return new(login) }, "x", `unknown field "x"`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Decode([]byte(tc.in), tc.into())
			if tc.message == "" {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode error = %#v, want *Error", err)
			}
			if e.Path != tc.path {
				t.Errorf("Path = %q, want %q (%v)", e.Path, tc.path, e)
			}
			if !strings.Contains(e.Message, tc.message) {
				t.Errorf("Message = %q, want it to contain %q", e.Message, tc.message)
			}
			if tc.expected != "" && e.Expected != tc.expected {
				t.Errorf("Expected = %q, want %q", e.Expected, tc.expected)
			}
		})
	}
}

// TestDecodeRedirected: a redirected top-level key decodes into its own target with its own
// type and errors at its path; the struct's field of that name stays untouched but still
// counts as known and required; nested keys of the same name are not redirected.
func TestDecodeRedirected(t *testing.T) {
	type inner struct {
		Tab string `json:"tab"`
	}
	type req struct {
		Tab   string `json:"tab" required:"true"`
		URL   string `json:"url"`
		Inner *inner `json:"inner,omitempty"`
	}
	type ref struct {
		Source string `json:"source" required:"true"`
	}
	var r req
	var tab *ref
	err := DecodeRedirected([]byte(`{"url":"u","tab":{"source":"initial"},"inner":{"tab":"x"}}`), &r, "op", map[string]any{"tab": &tab})
	if err != nil || tab == nil || tab.Source != "initial" || r.Tab != "" || r.URL != "u" || r.Inner.Tab != "x" {
		t.Fatalf("decode: %v; tab %+v; request %+v", err, tab, r)
	}
	tab = nil
	err = DecodeRedirected([]byte(`{"url":"u","tab":"t1"}`), &r, "op", map[string]any{"tab": &tab})
	if se, ok := err.(*Error); !ok || se.Path != "op.tab" || tab != nil {
		t.Fatalf("a string where the redirect wants an object: %v (tab %+v)", err, tab)
	}
	err = DecodeRedirected([]byte(`{"url":"u"}`), &r, "op", map[string]any{"tab": &tab})
	if se, ok := err.(*Error); !ok || se.Message != `missing required field "tab"` {
		t.Fatalf("missing redirected required field: %v", err)
	}
	err = DecodeRedirected([]byte(`{"tab":{"source":"initial"},"bogus":1}`), &r, "op", map[string]any{"tab": &tab})
	if se, ok := err.(*Error); !ok || se.Path != "op.bogus" {
		t.Fatalf("unknown field next to a redirect: %v", err)
	}
}
