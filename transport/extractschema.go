package transport

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// extractSchemaURL names the caller's schema inside the compiler: a URN, so no reference can
// resolve against a network base.
const extractSchemaURL = "urn:fastbrowser:extract:schema"

// draft202012 is the only $schema an extract schema may declare.
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// CompileExtractSchema checks an extract's schema and compiles it: at most
// budgets.ExtractSchemaBytes of JSON, an object whose top level is type "object", draft
// 2020-12, and every $ref and $dynamicRef a pointer into the schema itself ("#…"). The
// compiler has no loader: nothing is ever fetched, and a reference the schema does not hold
// fails to compile. Refusals are invalid_request at request.schema.
func CompileExtractSchema(raw []byte) (*jsonschema.Schema, error) {
	if len(raw) == 0 || len(raw) > budgets.ExtractSchemaBytes {
		return nil, Invalid(OpExtract, "request.schema", "expected a JSON Schema object of at most %d bytes", budgets.ExtractSchemaBytes)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	top, ok := doc.(map[string]any)
	if err != nil || !ok {
		return nil, Invalid(OpExtract, "request.schema", "expected a JSON Schema object")
	}
	if typ, _ := top["type"].(string); typ != "object" {
		return nil, Invalid(OpExtract, "request.schema", `expected "type": "object" at the schema's top level (extract maps a page into an object)`)
	}
	if s, ok := top["$schema"]; ok && s != draft202012 {
		return nil, Invalid(OpExtract, "request.schema", `expected "$schema" to be %q or left out: extract schemas are draft 2020-12`, draft202012)
	}
	if at := remoteRef(doc, ""); at != "" {
		return nil, Invalid(OpExtract, "request.schema", `the reference at %q is not a pointer into the schema ("#…"): extract never fetches a schema`, at)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if err := c.AddResource(extractSchemaURL, doc); err != nil {
		return nil, Invalid(OpExtract, "request.schema", "the schema could not be read").WithCause(err)
	}
	sch, err := c.Compile(extractSchemaURL)
	if err != nil {
		return nil, Invalid(OpExtract, "request.schema", "does not compile as JSON Schema draft 2020-12: %s", compileProblem(err)).WithCause(err)
	}
	return sch, nil
}

// remoteRef is the JSON Pointer of the first $ref or $dynamicRef (in key order) whose value is
// not a "#…" pointer, or "". It looks at every object in the document, not only schema
// positions: a "$ref" member of a const or an enum is refused too, which costs a caller
// nothing and keeps the check simple.
func remoteRef(v any, at string) string {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			p := at + "/" + PointerToken(k)
			if s, ok := v[k].(string); ok && (k == "$ref" || k == "$dynamicRef") && !strings.HasPrefix(s, "#") {
				return p
			}
			if found := remoteRef(v[k], p); found != "" {
				return found
			}
		}
	case []any:
		for i, e := range v {
			if found := remoteRef(e, fmt.Sprintf("%s/%d", at, i)); found != "" {
				return found
			}
		}
	}
	return ""
}

// PointerToken escapes one JSON Pointer reference token (RFC 6901).
func PointerToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// compileProblem says what the compiler refused without its resource URLs.
func compileProblem(err error) string {
	msg := strings.ReplaceAll(err.Error(), extractSchemaURL, "the schema")
	var se *jsonschema.SchemaValidationError
	if errors.As(err, &se) {
		if ve, ok := se.Err.(*jsonschema.ValidationError); ok {
			// The meta-schema's verdict: its deepest failure says what is wrong, and where
			// ("at '/properties/a/type': value must be one of …").
			msg = firstLeaf(ve).Error()
			if i := strings.LastIndex(msg, "- at "); i >= 0 {
				msg = msg[i+2:]
			}
		}
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}

// firstLeaf follows a validation error's first causes to the deepest one: the failure the
// others summarise.
func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

// SchemaViolation names where data failed a schema, never the value: the JSON Pointer of the
// failing value (`""` for the top level), the keyword that refused it, and for required the
// missing properties (names the schema holds). ok is false when err is no validation error.
func SchemaViolation(err error) (at, keyword string, missing []string, ok bool) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "", "", nil, false
	}
	leaf := firstLeaf(ve)
	if kw := leaf.ErrorKind.KeywordPath(); len(kw) > 0 {
		keyword = kw[len(kw)-1]
	}
	if r, isReq := leaf.ErrorKind.(*kind.Required); isReq {
		missing = r.Missing
	}
	return quotePointer(leaf.InstanceLocation), keyword, missing, true
}

// quotePointer renders the tokens of a location as a quoted JSON Pointer.
func quotePointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + PointerToken(t))
	}
	return strconv.Quote(b.String())
}

// noLoader refuses every URL: the draft's meta-schemas are built into the compiler, and an
// extract schema holds all it references.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("extract schemas are never fetched")
}
