package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSON as the generator reads and writes it: objects keep their members in the order they
// were written or built, so the generated schema reads like the skeleton and the Go types
// it comes from. A value is *object, []any, string, json.Number, int (built here), bool or
// nil.

// member is one member of an object.
type member struct {
	key string
	val any
}

// object is a JSON object in member order.
type object struct{ members []member }

// obj builds an object from key, value pairs.
func obj(kv ...any) *object {
	o := &object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// getObj is the member key when it is an object (nil otherwise).
func (o *object) getObj(key string) *object {
	v, _ := o.get(key)
	c, _ := v.(*object)
	return c
}

// set replaces key's value, or appends the member.
func (o *object) set(key string, v any) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].val = v
			return
		}
	}
	o.members = append(o.members, member{key, v})
}

func (o *object) keys() []string {
	keys := make([]string, len(o.members))
	for i, m := range o.members {
		keys[i] = m.key
	}
	return keys
}

// parseJSON reads one JSON document, keeping member order and numbers as written. A
// duplicate key is an error: the skeleton is hand-written, and the later one would win
// silently.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key := k.(string)
			if _, dup := o.get(key); dup {
				return nil, fmt.Errorf("duplicate key %q", key)
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			o.members = append(o.members, member{key, v})
		}
		_, err := dec.Token() // }
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ]
		return a, err
	}
	return tok, nil // string, json.Number, bool or nil
}

// lineWidth is how long a line may grow before an object or array on it is written one
// member per line.
const lineWidth = 110

// formatJSON writes v indented by two spaces, each object or array on one line when it fits
// (as the hand-written schema did) and every array of scalars on one line, ending in a
// newline.
func formatJSON(v any) []byte {
	var b strings.Builder
	writeValue(&b, v, "", 0)
	b.WriteByte('\n')
	return []byte(b.String())
}

// writeValue writes v at indent; used is the width already taken on its first line.
func writeValue(b *strings.Builder, v any, indent string, used int) {
	flat := compactJSON(v)
	if used+utf8.RuneCountInString(flat) <= lineWidth || scalars(v) {
		b.WriteString(flat)
		return
	}
	inner := indent + "  "
	switch v := v.(type) {
	case *object:
		if len(v.members) == 0 {
			break
		}
		b.WriteString("{\n")
		for i, m := range v.members {
			key := quote(m.key) + ": "
			b.WriteString(inner + key)
			writeValue(b, m.val, inner, len(inner)+utf8.RuneCountInString(key))
			if i < len(v.members)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
		return
	case []any:
		if len(v) == 0 {
			break
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(inner)
			writeValue(b, e, inner, len(inner))
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
		return
	}
	b.WriteString(flat) // a scalar never breaks
}

// scalars says v is an array of scalars (an enum), which reads best on one line however long.
func scalars(v any) bool {
	a, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range a {
		switch e.(type) {
		case *object, []any:
			return false
		}
	}
	return true
}

// compactJSON is v on one line, with a space after each colon and comma.
func compactJSON(v any) string {
	switch v := v.(type) {
	case *object:
		parts := make([]string, len(v.members))
		for i, m := range v.members {
			parts[i] = quote(m.key) + ": " + compactJSON(m.val)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = compactJSON(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return quote(v)
	case json.Number:
		return v.String()
	case int:
		return strconv.Itoa(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case nil:
		return "null"
	}
	panic(fmt.Sprintf("jsontree: unexpected %T", v))
}

// quote is s as a JSON string, without escaping <, > and & (a schema's patterns use them).
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// clone copies v deeply, so a subtree can be placed twice and changed in one place.
func clone(v any) any {
	switch v := v.(type) {
	case *object:
		c := &object{members: make([]member, len(v.members))}
		for i, m := range v.members {
			c.members[i] = member{m.key, clone(m.val)}
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = clone(e)
		}
		return c
	}
	return v
}
