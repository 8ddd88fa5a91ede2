package strictjson

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
)

// filler is the third pass: it writes a checked tree into the destination, with the
// same results encoding/json's Unmarshal would give for the same input. Mirroring its
// operations (reusing non-nil pointers, merging into maps, growing slices in place)
// matters when a caller decodes into a value that already holds data.
type filler struct {
	tree     *tree
	path     path
	top      *value                   // the document's root (see checker)
	redirect map[string]reflect.Value // keys of top filled elsewhere
}

// root fills the value rv (a non-nil pointer) points to; see checker.root.
func (f *filler) root(v *value, rv reflect.Value) error {
	if info := infoOf(rv.Type()); info.method != methodNone {
		return f.method(v, rv, info.method)
	}
	return f.value(v, rv.Elem())
}

func (f *filler) value(v *value, rv reflect.Value) error {
	t := rv.Type()
	info := infoOf(t)
	switch info.target {
	case targetMethod:
		return f.method(v, rv.Addr(), info.method)
	case targetPointer:
		if v.kind == kindNull {
			rv.SetZero()
			return nil
		}
		if rv.IsNil() {
			rv.Set(reflect.New(t.Elem()))
		}
		if info.method != methodNone {
			return f.method(v, rv, info.method)
		}
		return f.value(v, rv.Elem())
	case targetBool:
		rv.SetBool(v.raw[0] == 't')
	case targetInt:
		n, _ := strconv.ParseInt(string(v.raw), 10, 64)
		rv.SetInt(n)
	case targetUint:
		n, _ := strconv.ParseUint(string(v.raw), 10, 64)
		rv.SetUint(n)
	case targetFloat:
		n, _ := strconv.ParseFloat(string(v.raw), t.Bits())
		rv.SetFloat(n)
	case targetString:
		rv.SetString(text(v))
	case targetNumber:
		rv.SetString(string(v.raw))
	case targetBytes:
		if v.kind == kindNull {
			rv.SetZero()
			return nil
		}
		s := text(v)
		b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
		n, _ := base64.StdEncoding.Decode(b, []byte(s))
		rv.SetBytes(b[:n])
	case targetSlice, targetArray:
		return f.array(v, rv)
	case targetMap:
		return f.mapValue(v, rv)
	case targetStruct:
		return f.object(v, rv)
	}
	return nil
}

// method hands the value to the type's own decoding method; p is a pointer to it.
func (f *filler) method(v *value, p reflect.Value, m method) error {
	if !p.CanInterface() {
		return f.fail(nil, "cannot decode into %s: it is reached through an unexported field", p.Type().Elem())
	}
	var err error
	switch m {
	case methodStrict:
		err = p.Interface().(Unmarshaler).UnmarshalStrictJSON(v.raw, f.path.String())
		var se *Error
		if errors.As(err, &se) {
			return se
		}
		if err != nil {
			// Our own types write their messages for clients, so theirs can be shown.
			return f.fail(err, "invalid value: %v", err)
		}
	case methodJSON:
		err = p.Interface().(json.Unmarshaler).UnmarshalJSON(v.raw)
	case methodText:
		err = p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(text(v)))
	}
	if err != nil {
		// Other types' errors often quote the input, which may be a secret, so only the
		// type is named; the cause stays reachable through Unwrap for logs.
		return f.fail(err, "invalid value: not a valid %s", p.Type().Elem())
	}
	return nil
}

// array mirrors encoding/json's array decoding step for step.
func (f *filler) array(v *value, rv reflect.Value) error {
	if v.kind == kindNull {
		rv.SetZero()
		return nil
	}
	isSlice := rv.Kind() == reflect.Slice
	elems := f.tree.children(v)
	for i := range elems {
		if isSlice {
			if i >= rv.Cap() {
				// encoding/json grows by one element at a time; growing by all that
				// remain at once gives the same result, as they are all new zeros.
				rv.Grow(len(elems) - i)
			}
			if i >= rv.Len() {
				rv.SetLen(i + 1)
			}
		}
		f.path.pushIndex(i)
		if err := f.value(&elems[i], rv.Index(i)); err != nil {
			return err
		}
		f.path.pop()
	}
	if n := len(elems); isSlice {
		if n < rv.Len() {
			rv.SetLen(n)
		}
		if n == 0 {
			rv.Set(reflect.MakeSlice(rv.Type(), 0, 0))
		}
	}
	return nil
}

// mapValue merges into an existing map, and decodes each element into a fresh zero
// value rather than into the element already stored, as encoding/json does.
func (f *filler) mapValue(v *value, rv reflect.Value) error {
	if v.kind == kindNull {
		rv.SetZero()
		return nil
	}
	t := rv.Type()
	if rv.IsNil() {
		rv.Set(reflect.MakeMap(t))
	}
	members := f.tree.children(v)
	for i := range members {
		m := &members[i]
		elem := reflect.New(t.Elem()).Elem()
		f.path.pushKey(m.key)
		if err := f.value(m, elem); err != nil {
			return err
		}
		f.path.pop()
		key := reflect.New(t.Key()).Elem()
		key.SetString(m.key)
		rv.SetMapIndex(key, elem)
	}
	return nil
}

func (f *filler) object(v *value, rv reflect.Value) error {
	si := structInfoOf(rv.Type())
	members := f.tree.children(v)
	for i := range members {
		m := &members[i]
		fld, _ := si.lookup(m.key)
		f.path.pushKey(m.key)
		if target, ok := f.redirect[m.key]; ok && v == f.top {
			if err := f.root(m, target); err != nil {
				return err
			}
			f.path.pop()
			continue
		}
		sub, err := f.field(rv, fld)
		if err != nil {
			return err
		}
		if err := f.value(m, sub); err != nil {
			return err
		}
		f.path.pop()
	}
	return nil
}

// field returns fld's value inside rv, allocating nil embedded struct pointers on the way.
func (f *filler) field(rv reflect.Value, fld *field) (reflect.Value, error) {
	for _, i := range fld.index {
		if rv.Kind() == reflect.Pointer {
			if rv.IsNil() {
				// A nil pointer to an unexported embedded struct cannot be set from
				// outside its package (golang.org/issue/21357).
				if !rv.CanSet() {
					return reflect.Value{}, f.fail(nil, "cannot set embedded pointer to unexported struct %s", rv.Type().Elem())
				}
				rv.Set(reflect.New(rv.Type().Elem()))
			}
			rv = rv.Elem()
		}
		rv = rv.Field(i)
	}
	return rv, nil
}

func (f *filler) fail(cause error, format string, args ...any) error {
	return &Error{Path: f.path.String(), Message: fmt.Sprintf(format, args...), cause: cause}
}
