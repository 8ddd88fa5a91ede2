package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sameAsEncodingJSON decodes in into a fresh value from newV with both Decode and
// encoding/json and requires identical results.
func sameAsEncodingJSON(t *testing.T, in string, newV func() any) any {
	t.Helper()
	got, want := newV(), newV()
	if err := Decode([]byte(in), got); err != nil {
		t.Fatalf("Decode(%s): %v", in, err)
	}
	if err := json.Unmarshal([]byte(in), want); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", in, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode(%s)\n got %#v\nwant %#v", in, got, want)
	}
	return got
}

func TestAcceptsWhatEncodingJSONDecodes(t *testing.T) {
	req := func() any { return new(request) }
	for _, in := range []string{
		`{"url":"https://example.test/?q=1&r=<2>"}`,
		" \t\r\n{\"url\":\"a\"}\r\n",
		`{"url":"a","tab":"t1","timeoutMs":-5,"small":-128,"count":65535,"ratio":0.1,"flag":true}`,
		`{"url":"a","env":{"HOME":"/root","we ird":""},"args":["x","","\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t"]}`,
		`{"url":"a","steps":[{"name":"a"},{"name":"b","delay":1.5e3},{"name":"c","delay":null}]}`,
		`{"url":"a","next":{"url":"b","next":null}}`,
		`{"url":"a","raw":{"any": [1, "two", {"three": null}]}}`,
		`{"url":"a","raw":null}`,
		`{"url":"a","raw":  "x"  }`,
		`{"url":"a","pair":[1,-2],"data":"aGVsbG8=","num":-1.5e-7}`,
		`{"url":"a","data":null,"env":null,"args":null,"steps":[],"next":null}`,
		`{"url":"a","stamp":"2024-01-01","NoTag":"x"}`,
		`{"url":"a","stamp":null}`,
		`{"url":"\u0000\u001f\u007f\u2028\ufffd"}`,
		`{"\u0075rl":"escaped key"}`,
		`{"url":"a","timeoutMs":-0,"ratio":-0.0,"small":0}`,
	} {
		sameAsEncodingJSON(t, in, req)
	}
	sameAsEncodingJSON(t, `{"i":-9223372036854775808,"i8":127,"i64":9223372036854775807,"u":0,"u8":255,"u64":18446744073709551615,"f32":3.4e38,"f64":1e-400}`,
		func() any { return new(ints) })
	sameAsEncodingJSON(t, `{"url":"a","level":"high"}`, req) // TextUnmarshaler
	sameAsEncodingJSON(t, `["a","b"]`, func() any { return new([]string) })
	sameAsEncodingJSON(t, `null`, func() any { return new([]string) })
	sameAsEncodingJSON(t, `null`, func() any { return new(*request) })
	sameAsEncodingJSON(t, `"x"`, func() any { return new(string) })
	sameAsEncodingJSON(t, `{"a":[1,2]}`, func() any { return new(map[string][]int) })
	sameAsEncodingJSON(t, `{"a": 1}`, func() any { return new(json.RawMessage) })
	sameAsEncodingJSON(t, manyKeys(40, `"last":2`), func() any { return new(map[string]int) })
	sameAsEncodingJSON(t, nest("[", "]", maxDepth), func() any { return new(json.RawMessage) })
}

func TestEmbedded(t *testing.T) {
	got := sameAsEncodingJSON(t, `{"url":"u","tab":{"source":"s"}}`, func() any { return new(outer) }).(*outer)
	if got.Tab == nil || got.Tab.Source != "s" || got.URL != "u" || got.inner.Tab != "" {
		t.Fatalf("outer = %+v", got)
	}
	sameAsEncodingJSON(t, `{}`, func() any { return new(hidesRequired) }) // the hidden field's required tag does not apply
	sameAsEncodingJSON(t, `{"id":5}`, func() any { return new(hidesRequired) })
	sameAsEncodingJSON(t, `{"other":"o"}`, func() any { return new(ambiguous) })
	sameAsEncodingJSON(t, `{"Name":"tagged wins"}`, func() any { return new(tagged) })
	v := sameAsEncodingJSON(t, `{"kind":"k","extra":"e"}`, func() any { return new(viaPointer) }).(*viaPointer)
	if v.Base == nil || v.Kind != "k" {
		t.Fatalf("viaPointer = %+v", v)
	}
	sameAsEncodingJSON(t, `{"id":"x"}`, func() any { return &viaUnexportedPointer{&hiddenRequired{}} })
}

// TestMergesLikeEncodingJSON decodes into destinations that already hold data.
func TestMergesLikeEncodingJSON(t *testing.T) {
	prefilled := func() any {
		delay := 9.0
		steps := make([]step, 3, 10)
		steps[0] = step{Name: "old0", Delay: &delay}
		steps[1] = step{Name: "old1"}
		steps = append(steps[:3], step{Name: "beyond len"})[:3]
		return &request{
			URL: "old", Tab: "keep", Env: map[string]string{"OLD": "1", "A": "x"},
			Args: []string{"1", "2", "3"}, Steps: steps, Next: &request{Tab: "keep too"},
			Pair: [2]int{7, 8}, Raw: json.RawMessage(`"old"`), Data: []byte("old"),
		}
	}
	for _, in := range []string{
		`{"url":"new","env":{"A":"y"},"args":["z"],"steps":[{"name":"n0"},{"name":"n1"},{"name":"n2"},{"name":"n3"}],"next":{"url":"n"},"pair":[1,2],"raw":[1]}`,
		`{"url":"new","args":[],"steps":[{"name":"only"}],"data":"AA=="}`,
		`{"url":"new","env":null,"args":null,"next":null,"raw":null,"data":null}`,
	} {
		sameAsEncodingJSON(t, in, prefilled)
	}
}

func TestUnion(t *testing.T) {
	var l login
	if err := Decode([]byte(`{"user":"u","password":"p","backup":{"env":"PW"}}`), &l); err != nil {
		t.Fatal(err)
	}
	if l.Password.Literal != "p" || l.Backup == nil || l.Backup.Env != "PW" {
		t.Fatalf("login = %+v", l)
	}
}

func TestRefusalLeavesDestinationUntouched(t *testing.T) {
	r := request{URL: "before"}
	err := Decode([]byte(`{"url":"after","tab":"t","flag":"no"}`), &r)
	if err == nil || r.URL != "before" || r.Tab != "" {
		t.Fatalf("err = %v, request = %+v", err, r)
	}
}

func TestUnmarshalJSONErrorHidesInput(t *testing.T) {
	err := Decode([]byte(`{"url":"a","stamp":"hunter2"}`), new(request))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v, want a refusal that does not quote the input", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Unwrap() == nil || !strings.Contains(e.Unwrap().Error(), "hunter2") {
		t.Fatalf("cause = %v, want the stamp's own error", errors.Unwrap(err))
	}
}

func TestDecodeAt(t *testing.T) {
	cases := []struct{ in, base, path string }{
		{`{"url":1}`, "operations[1].request", "operations[1].request.url"},
		{`{}`, "operations[1].request", "operations[1].request"},
		{`{"url":"a","args":[1]}`, "operations[1].request", "operations[1].request.args[0]"},
		{`{"url":"a","env":{"a b":1}}`, "fixture", `fixture.env["a b"]`},
		{`{"url":"a"} x`, "fixture", "fixture"},
		{`[1]`, "fixture.server.start.args", "fixture.server.start.args[0]"},
	}
	for _, tc := range cases {
		var v any = new(request)
		if strings.HasPrefix(tc.in, "[") {
			v = new([]string)
		}
		err := DecodeAt([]byte(tc.in), v, tc.base)
		var e *Error
		if !errors.As(err, &e) || e.Path != tc.path {
			t.Errorf("DecodeAt(%s, %q) = %v, want path %q", tc.in, tc.base, err, tc.path)
		}
	}
}

func TestErrorString(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{Message: `missing required field "url"`}, `(root): missing required field "url"`},
		{Error{Path: "operations[1].request.url", Message: "expected string, got number"}, "operations[1].request.url: expected string, got number"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestBadDestination(t *testing.T) {
	var nilPtr *request
	for _, v := range []any{nil, request{}, nilPtr} {
		var e *Error
		if err := Decode([]byte(`{}`), v); !errors.As(err, &e) || !strings.Contains(e.Message, "non-nil pointer") {
			t.Errorf("Decode into %T = %v, want a refusal", v, err)
		}
	}
	type loop *loop
	var l loop
	if err := Decode([]byte(`null`), &l); err == nil || !strings.Contains(err.Error(), "recursive") {
		t.Errorf("Decode into a recursive pointer type = %v, want a refusal", err)
	}
}
