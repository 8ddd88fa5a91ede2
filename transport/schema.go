package transport

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// The protocol v1 JSON Schema (`fastbrowser schema --protocol`, docs/protocol.schema.json),
// generated from the Go types so it cannot drift from them: every row of the operation table
// gives "<op>.request" (its New()) and "<op>.result" (its newResult()), and the frames of
// wire.go give the rest. A new operation needs nothing here. A type the generator has no rule
// for (a named non-struct type, anything that encodes or decodes itself) is an error naming
// the field, never a guess: add its rule to typeRules (schemarules.go).

// ProtocolSchemaID is the protocol schema's $id.
const ProtocolSchemaID = "https://fastbrowser.dev/schemas/protocol-v1.json"

// direction says who writes a value, which decides what is required: a request field is
// required only when its `required:"true"` tag says so (the strict decoder's rule); a result
// field is always present unless it is omitempty (encoding/json's rule).
type direction int

const (
	toServer direction = iota
	fromServer
)

// ProtocolSchema returns the protocol v1 schema, indented, ending in a newline.
func ProtocolSchema() ([]byte, error) {
	root, err := protocolSchema(Ops())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// schemaDoc is the schema's top level.
type schemaDoc struct {
	Schema      string                 `json:"$schema"`
	ID          string                 `json:"$id"`
	Title       string                 `json:"title"`
	Description string                 `json:"description"`
	OneOf       []*schemaNode          `json:"oneOf"`
	Defs        map[string]*schemaNode `json:"$defs"`
}

// protocolSchema is the schema of the frames carrying ops (the operation table's rows).
func protocolSchema(ops []OpSpec) (*schemaDoc, error) {
	g := newSchemaGen()
	var opNames []string
	var results []*schemaNode
	var bodies []*schemaNode
	for _, s := range ops {
		op := s.New()
		if err := g.define(s.Name+".request", reflect.TypeOf(op).Elem(), toServer); err != nil {
			return nil, err
		}
		if err := g.define(s.Name+".result", reflect.TypeOf(op.newResult()).Elem(), fromServer); err != nil {
			return nil, err
		}
		opNames = append(opNames, s.Name)
		results = append(results, refTo(s.Name+".result"))
		// The request of a frame naming this op must be this op's request (or absent or
		// null, which mean {}).
		bodies = append(bodies, &schemaNode{
			If:   &schemaNode{Properties: &properties{{"op", &schemaNode{Const: s.Name}}}, Required: []string{"op"}},
			Then: &schemaNode{Properties: &properties{{"request", nullable(refTo(s.Name + ".request"))}}},
		})
	}
	if err := g.frames(opNames, results, bodies); err != nil {
		return nil, err
	}
	doc := &schemaDoc{
		Schema: "https://json-schema.org/draft/2020-12/schema",
		ID:     ProtocolSchemaID,
		Title:  "fastbrowser protocol v1",
		Description: "Every frame of protocol v1 (docs/protocol.md): one of the frames below. " +
			"$defs holds each operation's request (<op>.request) and result (<op>.result). " +
			"A response frame does not name its op, so its result is any operation's result; " +
			"validate it against <op>.result of the request with the same id to be exact. " +
			"Generated from the Go types by `fastbrowser schema --protocol`.",
		Defs: g.defs,
	}
	for _, f := range frameDefs {
		if f.root {
			doc.OneOf = append(doc.OneOf, refTo(f.name))
		}
	}
	return doc, nil
}

// schemaGen builds $defs: one per operation request and result, one per struct type.
type schemaGen struct {
	defs map[string]*schemaNode
	made map[typeDir]bool
}

// typeDir is a struct type seen in one direction: a type used in both must come out the
// same both ways, or generation fails.
type typeDir struct {
	t   reflect.Type
	dir direction
}

func newSchemaGen() *schemaGen {
	return &schemaGen{defs: map[string]*schemaNode{}, made: map[typeDir]bool{}}
}

// define adds name as a reference to the struct type t's definition.
func (g *schemaGen) define(name string, t reflect.Type, dir direction) error {
	n, err := g.typeSchema(t, dir, name)
	if err != nil {
		return err
	}
	g.defs[name] = n
	return nil
}

// typeSchema is the schema of a value of type t; path names it in errors.
func (g *schemaGen) typeSchema(t reflect.Type, dir direction, path string) (*schemaNode, error) {
	if t.Kind() == reflect.Pointer {
		return g.typeSchema(t.Elem(), dir, path) // null is the field's business
	}
	if rule, ok := typeRules[t]; ok {
		return rule(), nil
	}
	if why := selfCoded(t); why != "" {
		return nil, fmt.Errorf("protocol schema: %s: type %s %s and has no rule in typeRules (transport/schemarules.go)", path, t, why)
	}
	switch t.Kind() {
	case reflect.Struct:
		return g.structRef(t, dir, path)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break // base64 bytes: no protocol field is one yet
		}
		items, err := g.typeSchema(t.Elem(), dir, path+"[]")
		if err != nil {
			return nil, err
		}
		return &schemaNode{Type: "array", Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		vals, err := g.typeSchema(t.Elem(), dir, path+"{}")
		if err != nil {
			return nil, err
		}
		return &schemaNode{Type: "object", AdditionalProperties: vals}, nil
	}
	if t.Name() != "" && t.PkgPath() != "" {
		// A named scalar (Code, Phase, …) stands for a closed set or a format the bare
		// kind would not say.
		return nil, fmt.Errorf("protocol schema: %s: named type %s has no rule in typeRules (transport/schemarules.go)", path, t)
	}
	switch t.Kind() {
	case reflect.String:
		return &schemaNode{Type: "string"}, nil
	case reflect.Bool:
		return &schemaNode{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &schemaNode{Type: "integer"}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		zero := 0
		return &schemaNode{Type: "integer", Minimum: &zero}, nil
	case reflect.Float32, reflect.Float64:
		return &schemaNode{Type: "number"}, nil
	}
	return nil, fmt.Errorf("protocol schema: %s: type %s has no rule in typeRules (transport/schemarules.go)", path, t)
}

var (
	strictUnmarshaler = reflect.TypeFor[strictjson.Unmarshaler]()
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	jsonMarshaler     = reflect.TypeFor[json.Marshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshaler     = reflect.TypeFor[encoding.TextMarshaler]()
	rawMessage        = reflect.TypeFor[json.RawMessage]()
)

// selfCoded says how t (or *t) encodes or decodes itself, "" when it does not: its JSON
// then is whatever its methods make it, which reflection cannot see.
func selfCoded(t reflect.Type) string {
	for _, m := range []struct {
		iface reflect.Type
		name  string
	}{{strictUnmarshaler, "UnmarshalStrictJSON"}, {jsonUnmarshaler, "UnmarshalJSON"}, {jsonMarshaler, "MarshalJSON"},
		{textUnmarshaler, "UnmarshalText"}, {textMarshaler, "MarshalText"}} {
		if t.Implements(m.iface) || reflect.PointerTo(t).Implements(m.iface) {
			return "implements " + m.name
		}
	}
	return ""
}

// structRef defines a struct type under its Go name and refers to it.
func (g *schemaGen) structRef(t reflect.Type, dir direction, path string) (*schemaNode, error) {
	name := t.Name()
	if name == "" {
		return g.structSchema(t, dir, path, false)
	}
	if g.made[typeDir{t, dir}] {
		return refTo(name), nil
	}
	g.made[typeDir{t, dir}] = true
	if g.made[typeDir{t, 1 - dir}] {
		// Used the other way too: one definition serves both only if both ways agree.
		other := newSchemaGen()
		if _, err := other.structRef(t, dir, path); err != nil {
			return nil, err
		}
		for def, n := range other.defs {
			a, _ := json.Marshal(n)
			b, _ := json.Marshal(g.defs[def])
			if g.defs[def] != nil && !bytes.Equal(a, b) {
				return nil, fmt.Errorf("protocol schema: %s: type %s has one shape in requests and another in results", path, def)
			}
		}
		return refTo(name), nil
	}
	if _, taken := g.defs[name]; taken {
		return nil, fmt.Errorf("protocol schema: %s: two types named %s", path, name)
	}
	g.defs[name] = nil // reserved: a recursive type refers to itself
	n, err := g.structSchema(t, dir, path, false)
	if err != nil {
		return nil, err
	}
	g.defs[name] = n
	return refTo(name), nil
}

// structSchema is a struct's object: its JSON fields (embedded structs' promoted), required
// by direction, nothing else allowed (the decoder refuses unknown keys).
// raw (frames only): a json.RawMessage member is any value, for the frame to narrow.
func (g *schemaGen) structSchema(t reflect.Type, dir direction, path string, raw bool) (*schemaNode, error) {
	fields, err := jsonFields(t, path)
	if err != nil {
		return nil, err
	}
	n := &schemaNode{Type: "object", Properties: &properties{}, AdditionalProperties: false}
	for _, f := range fields {
		if f.required || (dir == fromServer && !f.omitEmpty) {
			n.Required = append(n.Required, f.name)
		}
		if raw && f.typ == rawMessage {
			n.Properties.set(f.name, &schemaNode{})
			continue
		}
		fs, err := g.typeSchema(f.typ, dir, path+"."+f.name)
		if err != nil {
			return nil, err
		}
		k := f.typ.Kind()
		canBeNull := k == reflect.Pointer || k == reflect.Slice || k == reflect.Map
		// The decoder takes null for a pointer, slice or map that is not required;
		// encoding/json writes null for a nil one that is not omitempty.
		if canBeNull && !f.required && (dir == toServer || !f.omitEmpty) {
			fs = nullable(fs)
		}
		n.Properties.set(f.name, fs)
	}
	return n, nil
}

// jsonField is one struct field as JSON sees it.
type jsonField struct {
	name      string
	typ       reflect.Type
	required  bool // `required:"true"`
	omitEmpty bool
}

// jsonFields lists t's JSON fields in declaration order, embedded structs without a json
// name flattened in. Two fields of one name is an error: encoding/json's hiding rules would
// decide, and the protocol's types never rely on them.
func jsonFields(t reflect.Type, path string) ([]jsonField, error) {
	var out []jsonField
	seen := map[string]bool{}
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := sf.Type
			if sf.Anonymous && name == "" {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					if err := walk(ft); err != nil {
						return err
					}
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if seen[name] {
				return fmt.Errorf("protocol schema: %s: two fields named %q", path, name)
			}
			seen[name] = true
			out = append(out, jsonField{name: name, typ: sf.Type, required: sf.Tag.Get("required") == "true",
				omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
		}
		return nil
	}
	return out, walk(t)
}
