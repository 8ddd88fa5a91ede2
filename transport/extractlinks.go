package transport

import (
	"encoding/json"
	"slices"
	"strings"
)

// extractLinkFieldsMax bounds the link fields one extract's warnings name (a schema of 32 KiB
// could have hundreds); the last warning says how many more there were.
const extractLinkFieldsMax = 8

// ExtractLinkWarnings warns about the string fields of an extract's schema that look like
// links: format uri, uri-reference, iri or iri-reference, or a name url, uri, href or link, or
// ending Url, URL, Uri, Href, _url, -url, _uri or _href. The outline shows a link to the
// page's own site by its path ("-> /orders/7"), and a model can give only what the outline
// shows, so such a value may be a relative path, to resolve against the page's URL. It reads
// the schema alone (no page, no model): the same schema always warns the same, in the order
// of the fields' JSON Pointers into the data ("/items/*/href": "*" is any array item).
func ExtractLinkWarnings(schema []byte) []string {
	var doc any
	if json.Unmarshal(schema, &doc) != nil {
		return nil
	}
	seen := map[string]bool{}
	linkFields(doc, "", "", seen, 0)
	fields := slices.Sorted(func(yield func(string) bool) {
		for f := range seen {
			if !yield(f) {
				return
			}
		}
	})
	var out []string
	for i, f := range fields {
		if i == extractLinkFieldsMax {
			out = append(out, "and "+itoa(len(fields)-i)+" more link fields: the same holds for each")
			break
		}
		out = append(out, "data field "+quoteJSON(f)+" looks like a link: the outline shows a link to the page's own site by its path (-> /orders/7), so its value may be a relative path; resolve it against the page's URL")
	}
	return out
}

// linkFields walks schema node n, found at data pointer at under property name, recording
// the pointers of link-like string fields. Subschemas that describe the same data (allOf,
// anyOf, oneOf, then, else) keep the pointer; properties, items and additionalProperties
// go one level down.
func linkFields(n any, at, name string, seen map[string]bool, depth int) {
	m, ok := n.(map[string]any)
	if !ok || depth > 64 {
		return
	}
	if name != "" && isStringSchema(m) && (linkFormat(m) || linkName(name)) {
		seen[at] = true
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for k, v := range props {
			linkFields(v, at+"/"+escapePointer(k), k, seen, depth+1)
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if v, ok := m[key].(map[string]any); ok {
			linkFields(v, at+"/*", name, seen, depth+1)
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := m[key].([]any); ok {
			for _, v := range list {
				linkFields(v, at, name, seen, depth+1)
			}
		}
	}
	for _, key := range []string{"then", "else"} {
		linkFields(m[key], at, name, seen, depth+1)
	}
}

// isStringSchema: the node's type is "string" or a list holding it, or it has no type and a
// link format.
func isStringSchema(m map[string]any) bool {
	switch t := m["type"].(type) {
	case string:
		return t == "string"
	case []any:
		return slices.Contains(t, any("string"))
	case nil:
		return linkFormat(m)
	}
	return false
}

func linkFormat(m map[string]any) bool {
	f, _ := m["format"].(string)
	return f == "uri" || f == "uri-reference" || f == "iri" || f == "iri-reference"
}

func linkName(name string) bool {
	switch strings.ToLower(name) {
	case "url", "uri", "href", "link":
		return true
	}
	for _, suffix := range []string{"Url", "URL", "Uri", "Href", "_url", "-url", "_uri", "_href"} {
		if strings.HasSuffix(name, suffix) && len(name) > len(suffix) {
			return true
		}
	}
	return false
}

// escapePointer escapes a property name as a JSON Pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func quoteJSON(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
