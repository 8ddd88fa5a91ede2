package transport

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// schemaHost serves a schema at every path and counts the requests: a check that fetched
// would show.
func schemaHost(t *testing.T) (*httptest.Server, *atomic.Int32) {
	hits := new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"type":"string"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}

// TestExtractSchemaAccepted: object schemas of draft 2020-12, local references included.
func TestExtractSchemaAccepted(t *testing.T) {
	for _, s := range []string{
		`{"type":"object"}`,
		`{"type":"object","properties":{"name":{"type":"string"},"price":{"type":"number"}},"required":["name","price"]}`,
		`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/item"}}},"$defs":{"item":{"type":"object","properties":{"name":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"a":{"$anchor":"a","type":"string"},"b":{"$ref":"#a"}}}`,
	} {
		if err := Validate(&Extract{Schema: []byte(s)}); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestExtractSchemaRefused: each bad schema is refused invalid_request at request.schema,
// the message saying what was expected.
func TestExtractSchemaRefused(t *testing.T) {
	srv, hits := schemaHost(t)
	cases := []struct{ name, schema, msg string }{
		{"not JSON", `{"type":`, "expected a JSON Schema object"},
		{"an array", `[{"type":"object"}]`, "expected a JSON Schema object"},
		{"a string at the top", `{"type":"string"}`, `"type": "object"`},
		{"no type", `{"properties":{"a":{"type":"string"}}}`, `"type": "object"`},
		{"type list", `{"type":["object","null"]}`, `"type": "object"`},
		{"draft 7", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, "draft 2020-12"},
		{"remote $ref", `{"type":"object","properties":{"a":{"$ref":"` + srv.URL + `/a.json"}}}`, `reference at "/properties/a/$ref" is not a pointer into the schema`},
		{"relative $ref", `{"type":"object","properties":{"a":{"items":[{"$ref":"a.json#/x"}]}}}`, `reference at "/properties/a/items/0/$ref"`},
		{"remote $dynamicRef", `{"type":"object","properties":{"a":{"$dynamicRef":"` + srv.URL + `#x"}}}`, `/properties/a/$dynamicRef`},
		{"remote $id base then local-looking ref", `{"$id":"` + srv.URL + `/root.json","type":"object","properties":{"a":{"$ref":"` + srv.URL + `/other.json"}}}`, "never fetches"},
		{"unknown type", `{"type":"object","properties":{"a":{"type":"strung"}}}`, "does not compile as JSON Schema draft 2020-12"},
		{"minLength a string", `{"type":"object","properties":{"a":{"minLength":"x"}}}`, "does not compile"},
		{"dangling local ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, "does not compile"},
		{"too large", `{"type":"object","description":"` + strings.Repeat("x", budgets.ExtractSchemaBytes) + `"}`, "at most 32768 bytes"},
		{"empty", ``, "at most 32768 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(&Extract{Schema: []byte(c.schema)})
			oe := AsOperationError("", err)
			if oe == nil || oe.Code != CodeInvalidRequest || oe.Path != "request.schema" || oe.Operation != OpExtract || oe.MutationState != NotAttempted {
				t.Fatalf("err = %#v, want invalid_request at request.schema", oe)
			}
			if !strings.Contains(oe.Message, c.msg) {
				t.Errorf("message %q does not say %q", oe.Message, c.msg)
			}
			if strings.Contains(oe.Message, "urn:fastbrowser") {
				t.Errorf("message %q names the compiler's resource", oe.Message)
			}
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("checking the schemas fetched %d times from the referenced server", n)
	}
}

// TestExtractSchemaNeverFetches: even a reference the walk would not see (one spelled through
// a remote $id base) cannot reach the network: the compiler has no loader.
func TestExtractSchemaNeverFetches(t *testing.T) {
	srv, hits := schemaHost(t)
	// "#/$defs/x" is local; the $id makes the document's base the server, and the compiler
	// must resolve it inside the document, not fetch it.
	schema := `{"$id":"` + srv.URL + `/root.json","type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`
	if _, err := CompileExtractSchema([]byte(schema)); err != nil {
		t.Fatal(err)
	}
	if _, err := CompileExtractSchema([]byte(`{"$id":"` + srv.URL + `/root.json","type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)); err == nil {
		t.Fatal("a dangling reference under a remote base compiled")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("compiling fetched %d times", n)
	}
}
