package main

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// The scenario schema's request shapes, reflected from the Go types the way scenario files
// decode them (scenario/requests.go): the strict decoder's fields, required where tagged
// `required:"true"`, null taken for an optional pointer, slice or map, nothing else allowed;
// a request's `handle:"tab"` field is a tab reference (scenario.TabRef) and its `file:"-"`
// field does not exist. Each named struct type becomes one $defs entry, named like the type
// (Target → target); each request, "<op>Request". fieldRules (rules.go) adds what Validate
// checks beyond the types.

// typeRules are the types whose JSON reflection cannot see.
var typeRules = map[reflect.Type]func() *object{
	// Text: a literal or {"env": NAME}; sharedDefs has its shape.
	reflect.TypeFor[transport.Text](): func() *object { return ref("text") },
	// TextMatch: a string or {"regex", "flags"?}; sharedDefs has its shape.
	reflect.TypeFor[transport.TextMatch](): func() *object { return ref("textMatch") },
	// ValueMatch: an assertion's expected value, a string or {"regex", "flags"?}; sharedDefs
	// has its shape.
	reflect.TypeFor[transport.ValueMatch](): func() *object { return ref("valueMatch") },
	// WaitMode's decoder takes exactly these two.
	reflect.TypeFor[transport.WaitMode](): func() *object {
		return obj("enum", strs(transport.WaitBounded, transport.WaitNone))
	},
	// JSONValue: any JSON value (a field rule may narrow it).
	reflect.TypeFor[transport.JSONValue](): func() *object { return obj() },
}

// field is one struct field as the strict decoder sees it.
type field struct {
	name        string
	typ         reflect.Type
	required    bool // `required:"true"`
	handle      bool // `handle:"tab"`: a tab reference in files
	runtimeOnly bool // `file:"-"`: refused in files
}

// jsonFields lists t's JSON fields in declaration order, embedded structs without a json
// name flattened in.
func jsonFields(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		out = append(out, field{name: name, typ: sf.Type, required: sf.Tag.Get("required") == "true",
			handle: sf.Tag.Get("handle") == "tab", runtimeOnly: sf.Tag.Get("file") == "-"})
	}
	return out
}

// fieldOf is t's JSON field name (false when t has none).
func fieldOf(t reflect.Type, name string) (field, bool) {
	for _, f := range jsonFields(t) {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

// fileGen builds the generated $defs.
type fileGen struct {
	defs  *object                 // generated definitions, in the order made
	names map[string]reflect.Type // def name → the struct type it describes
	used  map[int]bool            // fieldRules applied, by index
}

func newFileGen() *fileGen {
	return &fileGen{defs: &object{}, names: map[string]reflect.Type{}, used: map[int]bool{}}
}

// request defines "<op>Request", the request of a file operation.
func (g *fileGen) request(op string) error {
	spec, ok := transport.LookupOp(op)
	if !ok || !spec.InFiles {
		return fmt.Errorf("%s is not an operation scenario files may use", op)
	}
	t := reflect.TypeOf(spec.New()).Elem()
	n, err := g.structNode(t, op+".request", true)
	if err != nil {
		return err
	}
	g.defs.set(op+"Request", n)
	return nil
}

// structRef defines the named struct type t once (Target → "target") and refers to it.
func (g *fileGen) structRef(t reflect.Type, path string) (*object, error) {
	name := lowerFirst(t.Name())
	if have, ok := g.names[name]; ok {
		if have != t {
			return nil, fmt.Errorf("%s: two types named %s (%s and %s)", path, name, have, t)
		}
		return ref(name), nil
	}
	g.names[name] = t
	g.defs.set(name, nil) // reserved: a recursive type refers to itself
	n, err := g.structNode(t, path, false)
	if err != nil {
		return nil, err
	}
	g.defs.set(name, n)
	return ref(name), nil
}

// structNode is a struct's object. top: t is a request, whose handle and file:"-" fields
// the file decoder treats specially (only there: a nested one would be an error).
func (g *fileGen) structNode(t reflect.Type, path string, top bool) (*object, error) {
	n := obj("type", "object", "additionalProperties", false)
	props := &object{}
	var required []any
	for _, f := range jsonFields(t) {
		p := path + "." + f.name
		if (f.handle || f.runtimeOnly) && !top {
			return nil, fmt.Errorf("%s: a nested handle or file:\"-\" field, which scenario/requests.go does not handle", p)
		}
		if f.runtimeOnly {
			continue // unknown in files, like any other field the type lacks
		}
		var fs *object
		switch {
		case f.handle && f.typ.Kind() != reflect.String:
			return nil, fmt.Errorf("%s: a handle field is a string", p)
		case f.handle:
			if _, err := g.structRef(reflect.TypeFor[scenario.TabRef](), "tabRef"); err != nil {
				return nil, err
			}
			fs = ref("optionalTab") // hand-written: a tabRef or null
			if f.required {
				fs = ref("tabRef")
			}
		default:
			var err error
			if fs, err = g.typeNode(f.typ, p); err != nil {
				return nil, err
			}
		}
		if i, r, ok := ruleFor(t, f.name); ok {
			fs = r.apply(fs)
			g.used[i] = true
		}
		k := f.typ.Kind()
		if !f.handle && !f.required && (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map) {
			fs = nullable(fs) // the strict decoder takes null for it as absent
		}
		props.set(f.name, fs)
		if f.required {
			required = append(required, f.name)
		}
	}
	if len(required) > 0 {
		n.set("required", required)
	}
	n.set("properties", props)
	return n, nil
}

// typeNode is the schema of a value of type t.
func (g *fileGen) typeNode(t reflect.Type, path string) (*object, error) {
	if t.Kind() == reflect.Pointer {
		return g.typeNode(t.Elem(), path) // null is the field's business
	}
	if rule, ok := typeRules[t]; ok {
		return rule(), nil
	}
	if why := selfCoded(t); why != "" {
		return nil, fmt.Errorf("%s: type %s %s and has no rule in typeRules (filetypes.go)", path, t, why)
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.Name() == "" {
			return g.structNode(t, path, false)
		}
		return g.structRef(t, path)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			break
		}
		items, err := g.typeNode(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return obj("type", "array", "items", items), nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		vals, err := g.typeNode(t.Elem(), path+"{}")
		if err != nil {
			return nil, err
		}
		return obj("type", "object", "additionalProperties", vals), nil
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return nil, fmt.Errorf("%s: named type %s has no rule in typeRules (filetypes.go)", path, t)
	}
	switch t.Kind() {
	case reflect.String:
		return obj("type", "string"), nil
	case reflect.Bool:
		return obj("type", "boolean"), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return obj("type", "integer"), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return obj("type", "integer", "minimum", 0), nil
	case reflect.Float32, reflect.Float64:
		return obj("type", "number"), nil
	}
	return nil, fmt.Errorf("%s: type %s has no rule in typeRules (filetypes.go)", path, t)
}

// selfCoded says how t (or *t) encodes or decodes itself, "" when it does not.
func selfCoded(t reflect.Type) string {
	for _, m := range []struct {
		iface reflect.Type
		name  string
	}{{reflect.TypeFor[strictjson.Unmarshaler](), "UnmarshalStrictJSON"}, {reflect.TypeFor[json.Unmarshaler](), "UnmarshalJSON"},
		{reflect.TypeFor[json.Marshaler](), "MarshalJSON"}, {reflect.TypeFor[encoding.TextUnmarshaler](), "UnmarshalText"},
		{reflect.TypeFor[encoding.TextMarshaler](), "MarshalText"}} {
		if t.Implements(m.iface) || reflect.PointerTo(t).Implements(m.iface) {
			return "implements " + m.name
		}
	}
	return ""
}

// nullable lets n also be null: a second type when n names one plainly, else anyOf.
func nullable(n *object) *object {
	if typ, ok := n.get("type"); ok {
		_, hasEnum := n.get("enum")
		_, hasConst := n.get("const")
		if s, isStr := typ.(string); isStr && !hasEnum && !hasConst {
			c := clone(n).(*object)
			c.set("type", []any{s, "null"})
			return c
		}
	}
	return obj("anyOf", []any{n, obj("type", "null")})
}

func ref(def string) *object { return obj("$ref", "#/$defs/"+def) }

func strs(values ...string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
