package runtime

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// extractSystem is the whole instruction an extract's model is given.
const extractSystem = `You map what a web page shows into JSON data. You are shown the page's outline: one line per element, each line starting with its line id (such as L7), an element you could act on carrying a ref in brackets (such as [e12]) after its role. Call the extract tool exactly once. In "data" put only what the outline shows, fitting the data schema; leave out what it does not show, never guess. In "citations", for every string, number and boolean in data, give the ref of the outline line it came from without its brackets (e12), or its line id when the line has no ref, keyed by the value's JSON Pointer (such as /price or /items/0/name). Copy a string value from the text of the line you cite or of the lines under it.`

// extractRequest is the extract's one model call: the outline as the user's message and the
// one tool, whose data parameter is the caller's schema.
func extractRequest(schema []byte, outline string) (model.Request, error) {
	params, err := extractParams(schema, nil)
	if err != nil {
		return model.Request{}, err
	}
	return model.Request{
		System:   extractSystem,
		Messages: []model.Message{{Role: model.RoleUser, Text: "The page's outline:\n" + outline}},
		Tools: []model.Tool{{Name: transport.ToolExtract, Description: "Give the data the page shows, fitting the schema, and the outline ref each value came from.",
			Parameters: params}},
	}, nil
}

// extractParams is the extract tool's parameters: data (the caller's schema) and citations,
// both required unless extra adds properties a call may give instead (a combined task's
// scope).
func extractParams(schema []byte, extra map[string]any) (json.RawMessage, error) {
	data, err := embeddedSchema(schema)
	if err != nil {
		return nil, err
	}
	props := map[string]any{
		"data":      data,
		"citations": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
	}
	top := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(extra) == 0 {
		top["required"] = []string{"data", "citations"}
	}
	for k, v := range extra {
		props[k] = v
	}
	return json.Marshal(top)
}

// embeddedSchema is the caller's schema as the data property of the tool's parameters: its
// pointers into itself ("#/$defs/item", "#") now point under /properties/data, and its
// $schema and $id, which only a document's root may carry, are left out.
func embeddedSchema(schema []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	delete(v, "$schema")
	delete(v, "$id")
	rebaseRefs(v)
	return v, nil
}

func rebaseRefs(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && (k == "$ref" || k == "$dynamicRef") && (s == "#" || strings.HasPrefix(s, "#/")) {
				v[k] = "#/properties/data" + s[1:]
				continue
			}
			rebaseRefs(e)
		}
	case []any:
		for _, e := range v {
			rebaseRefs(e)
		}
	}
}
