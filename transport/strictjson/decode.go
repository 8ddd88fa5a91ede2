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
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{Path: base, Message: fmt.Sprintf("cannot decode into %T: need a non-nil pointer", v)}
	}
	tr, root, err := scan(data, base)
	if err != nil {
		return err
	}
	c := checker{tree: tr, path: newPath(base)}
	if err := c.root(&root, rv.Type()); err != nil {
		return err
	}
	f := filler{tree: tr, path: c.path}
	return f.root(&root, rv)
}
