package strictjson

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"strconv"
)

// checker is the second pass: it holds the scanned tree against the Go type and refuses
// any mismatch, without writing anything, so that the fill cannot fail half way for any
// reason this package decides.
type checker struct {
	tree *tree
	path path
	// top is the document's root value; redirect gives some of its keys another target
	// (see DecodeRedirected).
	top      *value
	redirect map[string]reflect.Value
}

// root checks the value that will be decoded through the pointer type pt. Like
// encoding/json, the pointer's own methods count, but the pointer is never set to nil.
func (c *checker) root(v *value, pt reflect.Type) error {
	info := infoOf(pt)
	switch {
	case info.target == targetUnsupported:
		return c.unsupported(pt, info)
	case info.method != methodNone:
		return c.method(v, info)
	}
	return c.value(v, pt.Elem())
}

func (c *checker) value(v *value, t reflect.Type) error {
	info := infoOf(t)
	switch info.target {
	case targetUnsupported:
		return c.unsupported(t, info)
	case targetMethod:
		return c.method(v, info)
	case targetPointer:
		switch {
		case v.kind == kindNull:
			return nil
		case info.method != methodNone:
			return c.method(v, info)
		}
		return c.value(v, t.Elem())
	case targetBool:
		return c.want(v, kindBool, info)
	case targetInt, targetUint:
		return c.integer(v, t, info)
	case targetFloat:
		if err := c.want(v, kindNumber, info); err != nil {
			return err
		}
		if _, err := strconv.ParseFloat(string(v.raw), t.Bits()); err != nil {
			return c.fail(info.expected, "number out of range for %s", t.Kind())
		}
	case targetString:
		return c.want(v, kindString, info)
	case targetNumber:
		return c.want(v, kindNumber, info)
	case targetBytes:
		if v.kind == kindNull {
			return nil
		}
		if err := c.want(v, kindString, info); err != nil {
			return err
		}
		if _, err := base64.StdEncoding.DecodeString(text(v)); err != nil {
			return c.fail(info.expected, "invalid value: not valid base64")
		}
	case targetSlice, targetArray:
		return c.array(v, t, info)
	case targetMap:
		return c.mapValue(v, t, info)
	case targetStruct:
		return c.object(v, t, info)
	}
	return nil
}

var textInfo = typeInfo{expected: "string"}

// method checks a value for a type that decodes itself. Such types see every JSON kind,
// null included, as they would under encoding/json; only UnmarshalText is limited to
// strings, because encoding/json would refuse anything else too (or silently skip null).
func (c *checker) method(v *value, info *typeInfo) error {
	if info.method == methodText {
		return c.want(v, kindString, &textInfo)
	}
	return nil
}

func (c *checker) want(v *value, kind valueKind, info *typeInfo) error {
	if v.kind != kind {
		return c.fail(info.expected, "expected %s, got %s", info.expected, v.kind)
	}
	return nil
}

// integer accepts only a JSON number written as an integer: encoding/json refuses 1.0
// and 1e2 for integer types, and a strict decoder must not accept what it refuses.
func (c *checker) integer(v *value, t reflect.Type, info *typeInfo) error {
	if err := c.want(v, kindNumber, info); err != nil {
		return err
	}
	for _, b := range v.raw {
		if b == '.' || b == 'e' || b == 'E' {
			return c.fail(info.expected, "expected %s, got a number with a fraction or exponent", info.expected)
		}
	}
	if info.target == targetUint {
		if v.raw[0] == '-' {
			return c.fail(info.expected, "expected %s, got a negative number", info.expected)
		}
		n, err := strconv.ParseUint(string(v.raw), 10, 64)
		if err != nil || t.OverflowUint(n) {
			return c.fail(info.expected, "integer out of range for %s", t.Kind())
		}
		return nil
	}
	n, err := strconv.ParseInt(string(v.raw), 10, 64)
	if err != nil || t.OverflowInt(n) {
		return c.fail(info.expected, "integer out of range for %s", t.Kind())
	}
	return nil
}

func (c *checker) array(v *value, t reflect.Type, info *typeInfo) error {
	if v.kind == kindNull && info.target == targetSlice {
		return nil
	}
	if err := c.want(v, kindArray, info); err != nil {
		return err
	}
	// encoding/json drops extra elements and zeroes missing ones; a fixed-size array in
	// the protocol means exactly that many values, so either is a client mistake.
	if info.target == targetArray && v.n != t.Len() {
		return c.fail(fmt.Sprintf("array of %d elements", t.Len()),
			"expected an array of %d elements, got %d", t.Len(), v.n)
	}
	et := t.Elem()
	elems := c.tree.children(v)
	for i := range elems {
		c.path.pushIndex(i)
		if err := c.value(&elems[i], et); err != nil {
			return err
		}
		c.path.pop()
	}
	return nil
}

func (c *checker) mapValue(v *value, t reflect.Type, info *typeInfo) error {
	if v.kind == kindNull {
		return nil
	}
	if err := c.want(v, kindObject, info); err != nil {
		return err
	}
	et := t.Elem()
	members := c.tree.children(v)
	for i := range members {
		m := &members[i]
		c.path.pushKey(m.key)
		if err := c.value(m, et); err != nil {
			return err
		}
		c.path.pop()
	}
	return nil
}

func (c *checker) object(v *value, t reflect.Type, info *typeInfo) error {
	if err := c.want(v, kindObject, info); err != nil {
		return err
	}
	si := structInfoOf(t)
	members := c.tree.children(v)
	required := 0
	for i := range members {
		m := &members[i]
		c.path.pushKey(m.key)
		f, ok := si.lookup(m.key)
		switch {
		case !ok:
			return c.fail(si.expected, "unknown field %q", m.key)
		case f.quoted:
			return c.fail("", "field %q uses the ,string tag option, which strict decoding does not support", f.name)
		case f.required && m.kind == kindNull:
			return c.fail(infoOf(f.typ).expected, "required field %q is null", f.name)
		case f.required:
			required++
		}
		if target, ok := c.redirect[m.key]; ok && v == c.top {
			if err := c.root(m, target.Type()); err != nil {
				return err
			}
			c.path.pop()
			continue
		}
		if err := c.value(m, f.typ); err != nil {
			return err
		}
		c.path.pop()
	}
	if required < si.required {
		// Keys are unique, so some required field is missing; find the first.
		for _, f := range si.fields {
			if f.required && !hasKey(members, f.name) {
				return c.fail("a value", "missing required field %q", f.name)
			}
		}
	}
	return nil
}

func hasKey(members []value, key string) bool {
	for i := range members {
		if members[i].key == key {
			return true
		}
	}
	return false
}

func (c *checker) unsupported(t reflect.Type, info *typeInfo) error {
	return c.fail("", "cannot decode into Go type %s: %s", t, info.why)
}

func (c *checker) fail(expected, format string, args ...any) error {
	return &Error{Path: c.path.String(), Expected: expected, Message: fmt.Sprintf(format, args...)}
}
