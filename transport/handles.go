package transport

import (
	"reflect"
	"strings"
)

// Tab handles. A field that holds a tab handle is tagged `handle:"tab"`, in requests and
// results alike (also inside slices of structs): the runtime translates exactly those fields
// between its opaque handles and the worker's target ids, and a scenario file writes a
// request's handle field as a tab reference.

// TabRefs returns pointers to every non-empty tab handle in v (a request or a result,
// passed as a pointer), so a caller can translate them in place.
func TabRefs(v any) []*string {
	var out []*string
	collectHandles(reflect.ValueOf(v), &out)
	return out
}

func collectHandles(v reflect.Value, out *[]*string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectHandles(v.Elem(), out)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			collectHandles(v.Index(i), out)
		}
	case reflect.Struct:
		for _, f := range handleFields(v.Type()) {
			fv := v.FieldByIndex(f.index)
			if f.handle {
				if fv.String() != "" && fv.CanAddr() {
					*out = append(*out, fv.Addr().Interface().(*string))
				}
				continue
			}
			collectHandles(fv, out)
		}
	}
}

// handleField is a field of a struct that is a handle or may hold one.
type handleField struct {
	index  []int
	handle bool
}

// handleFields lists t's handle fields and the struct-bearing fields that may hold some.
func handleFields(t reflect.Type) []handleField {
	var fields []handleField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if sf.Tag.Get("handle") == "tab" && sf.Type.Kind() == reflect.String {
			fields = append(fields, handleField{index: sf.Index, handle: true})
			continue
		}
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		if mayHoldHandles(sf.Type) {
			fields = append(fields, handleField{index: sf.Index})
		}
	}
	return fields
}

func mayHoldHandles(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return mayHoldHandles(t.Elem())
	case reflect.Struct:
		return t.NumField() > 0
	}
	return false
}

// HandleField is the JSON name of the request field of op that names its tab ("tab",
// "opener"), "" when the operation takes none, and whether the field is required.
func HandleField(op Operation) (name string, required bool) {
	sf, ok := handleFieldOf(reflect.Indirect(reflect.ValueOf(op)).Type())
	if !ok {
		return "", false
	}
	name, _, _ = strings.Cut(sf.Tag.Get("json"), ",")
	return name, sf.Tag.Get("required") == "true"
}

// TabOf is the tab op names in its handle field: "" when it names none (the selected tab is
// meant) or the operation takes no tab.
func TabOf(op Operation) string {
	v := reflect.Indirect(reflect.ValueOf(op))
	sf, ok := handleFieldOf(v.Type())
	if !ok {
		return ""
	}
	return v.FieldByIndex(sf.Index).String()
}

// handleFieldOf finds the handle field of request type t (a request has at most one:
// TestOperationTableRows). HandleField, TabOf and WithTab all go through it.
func handleFieldOf(t reflect.Type) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		if sf := t.Field(i); sf.Tag.Get("handle") == "tab" {
			return sf, true
		}
	}
	return reflect.StructField{}, false
}

// CopyOf returns a shallow copy of op, for a caller that rewrites fields of a request it was
// handed (the runtime translating tab handles, resolving {"env":…} text) without touching
// the caller's value. Shallow is enough for rewriting fields; it is not for writing through
// a pointer or into a slice the request holds.
func CopyOf(op Operation) Operation {
	v := reflect.ValueOf(op)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return op
		}
		v = v.Elem()
	}
	cp := reflect.New(v.Type())
	cp.Elem().Set(v)
	return cp.Interface().(Operation)
}

// WithTab returns a copy of op with its handle field set to tab (op itself is unchanged); an
// operation that takes no tab comes back as a plain copy.
func WithTab(op Operation, tab string) Operation {
	cp := CopyOf(op)
	v := reflect.ValueOf(cp).Elem()
	if sf, ok := handleFieldOf(v.Type()); ok {
		v.FieldByIndex(sf.Index).SetString(tab)
	}
	return cp
}
