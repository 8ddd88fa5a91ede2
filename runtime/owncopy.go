package runtime

import (
	"reflect"

	"github.com/fastbrowser/fastbrowser/transport"
)

// ownCopy returns a copy of the caller's request for the runtime to work on: tab handles
// are translated to worker target ids, {"env":…} text is resolved and redaction rules are
// merged on the copy, never on the caller's value. A shallow copy suffices because the
// runtime replaces fields (the tab strings, Act.Text, Act.Files, the redaction slice) and
// never writes through a pointer or slice the request holds. Every operation is a pointer
// to a struct (TabRefs has a pointer receiver).
func ownCopy(op transport.Operation) transport.Operation {
	v := reflect.ValueOf(op)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return op
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem())
	return cp.Interface().(transport.Operation)
}
