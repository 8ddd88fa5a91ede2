package strictjson

import (
	"fmt"
	"reflect"
)

// Unmarshaler lets a type whose JSON form is a union (for example `"literal"` or
// `{"env":"NAME"}`) check its own raw bytes strictly. raw is exactly the value's bytes
// and has already passed the UTF-8, syntax and duplicate-key checks. path is the
// value's JSON path, for errors; implementations may call DecodeAt(raw, x, path).
// An *Error it returns is passed through unchanged; any other error is reported at path
// with its text, so it must not quote raw. To decode raw into the type itself, convert
// the receiver to a type without the method, or DecodeAt would call it again.
type Unmarshaler interface {
	UnmarshalStrictJSON(raw []byte, path string) error
}

// Decode decodes data, which must hold exactly one JSON value with optional surrounding
// whitespace, into v, which must be a non-nil pointer. Every refusal is an *Error.
func Decode(data []byte, v any) error {
	return DecodeAt(data, v, "")
}

// DecodeAt is Decode with every error path prefixed by base, for a value that sits
// inside a larger document (base "operations[1].request" turns "url" into
// "operations[1].request.url").
func DecodeAt(data []byte, v any, base string) error {
	return DecodeRedirected(data, v, base, nil)
}

// DecodeRedirected is DecodeAt for a struct some of whose top-level fields take another
// shape in this document: the value of each key in redirect is decoded into that key's
// target (a non-nil pointer) instead of v's field of the same name. The field still counts
// for v's required fields and its list of known fields; only its type is replaced. A
// scenario file uses it to write a request's tab handle as a tab reference object.
func DecodeRedirected(data []byte, v any, base string, redirect map[string]any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{Path: base, Message: fmt.Sprintf("cannot decode into %T: need a non-nil pointer", v)}
	}
	var targets map[string]reflect.Value // nil unless redirected: most decodes are not
	if len(redirect) > 0 {
		targets = make(map[string]reflect.Value, len(redirect))
	}
	for key, t := range redirect {
		tv := reflect.ValueOf(t)
		if tv.Kind() != reflect.Pointer || tv.IsNil() {
			return &Error{Path: base, Message: fmt.Sprintf("cannot redirect %q into %T: need a non-nil pointer", key, t)}
		}
		targets[key] = tv
	}
	// One path serves the three passes in turn (a successful scan leaves it empty), its
	// segments taken from a pool: a frame's decode then allocates none for its path.
	tr, root, p, err := scan(data, pooledPath(base))
	if err != nil {
		return err
	}
	c := checker{tree: tr, path: p, top: &root, redirect: targets}
	if err := c.root(&root, rv.Type()); err != nil {
		return err
	}
	f := filler{tree: tr, path: c.path, top: &root, redirect: targets}
	err = f.root(&root, rv)
	if err == nil {
		f.path.release() // on a refusal it may be mid-walk; the pool does without it
	}
	return err
}
