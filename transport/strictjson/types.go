package strictjson

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// target is how a Go type takes a JSON value.
type target uint8

const (
	targetUnsupported target = iota
	targetMethod             // the type decodes itself: see typeInfo.method
	targetPointer
	targetBool
	targetInt
	targetUint
	targetFloat
	targetString
	targetNumber // json.Number: keeps a number's literal text
	targetBytes  // []byte: a base64 string, as encoding/json has it
	targetSlice
	targetArray
	targetMap
	targetStruct
)

// method is the decoding method a type provides, in the order encoding/json prefers them
// (after ours, which wins because it exists to be stricter than UnmarshalJSON).
type method uint8

const (
	methodNone   method = iota
	methodStrict        // Unmarshaler
	methodJSON          // json.Unmarshaler, which includes json.RawMessage
	methodText          // encoding.TextUnmarshaler
)

type typeInfo struct {
	target target
	// method: for targetMethod, what the type's pointer implements; for targetPointer,
	// what the pointer type itself implements (called on the pointer, allocating it).
	method   method
	expected string // what a JSON value for it must be, for type errors
	why      string // targetUnsupported: why
}

var (
	strictType     = reflect.TypeFor[Unmarshaler]()
	jsonType       = reflect.TypeFor[json.Unmarshaler]()
	textType       = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType     = reflect.TypeFor[json.Number]()
	maxPointerHops = 16
	typeCache      sync.Map // reflect.Type -> *typeInfo
)

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeCache.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti, _ := typeCache.LoadOrStore(t, newTypeInfo(t))
	return ti.(*typeInfo)
}

func methodOf(p reflect.Type) method {
	switch {
	case p.Implements(strictType):
		return methodStrict
	case p.Implements(jsonType):
		return methodJSON
	case p.Implements(textType):
		return methodText
	}
	return methodNone
}

func newTypeInfo(t reflect.Type) *typeInfo {
	if t.Kind() == reflect.Pointer {
		// A type like `type P *P` would otherwise be followed forever.
		e := t
		for hops := 0; e.Kind() == reflect.Pointer; hops++ {
			if hops == maxPointerHops {
				return &typeInfo{why: "pointer chain too long or recursive"}
			}
			e = e.Elem()
		}
		return &typeInfo{target: targetPointer, method: methodOf(t), expected: infoOf(t.Elem()).expected}
	}
	// Like encoding/json, only named types are checked for pointer-receiver methods: an
	// unnamed struct that embeds, say, time.Time is decoded field by field.
	if t.Name() != "" {
		switch m := methodOf(reflect.PointerTo(t)); m {
		case methodStrict, methodJSON:
			return &typeInfo{target: targetMethod, method: m, expected: "a " + t.String() + " value"}
		case methodText:
			return &typeInfo{target: targetMethod, method: m, expected: "string"}
		}
	}
	if t == numberType {
		return &typeInfo{target: targetNumber, expected: "number"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return &typeInfo{target: targetBool, expected: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &typeInfo{target: targetInt, expected: "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &typeInfo{target: targetUint, expected: "non-negative integer"}
	case reflect.Float32, reflect.Float64:
		return &typeInfo{target: targetFloat, expected: "number"}
	case reflect.String:
		return &typeInfo{target: targetString, expected: "string"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return &typeInfo{target: targetBytes, expected: "base64 string"}
		}
		return &typeInfo{target: targetSlice, expected: "array"}
	case reflect.Array:
		return &typeInfo{target: targetArray, expected: "array"}
	case reflect.Map:
		// Keys of other kinds (integers, TextUnmarshalers) would each need their own
		// strict rules; no protocol map needs them.
		if t.Key().Kind() != reflect.String || reflect.PointerTo(t.Key()).Implements(textType) {
			return &typeInfo{why: "only maps with plain string keys are supported"}
		}
		return &typeInfo{target: targetMap, expected: "object"}
	case reflect.Struct:
		return &typeInfo{target: targetStruct, expected: "object"}
	case reflect.Interface:
		return &typeInfo{why: "untyped (interface) values are not supported; the protocol has none"}
	}
	return &typeInfo{why: "no JSON value decodes into it"}
}
