package transport

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// RequestSchema is one operation's request as a self-contained JSON Schema (draft 2020-12):
// the request object's own fields at the top and, in "$defs", every type they use and
// nothing else. It is the same generation as the protocol schema (schema.go), so a caller
// that offers one operation through another protocol (the MCP server's tool input
// schemas, runtime/mcpserver) describes exactly what the strict decoder takes, never a
// hand-written copy.
func RequestSchema(op string) (json.RawMessage, error) {
	spec, ok := LookupOp(op)
	if !ok {
		return nil, fmt.Errorf("request schema: no operation %q", op)
	}
	g := newSchemaGen() // fresh: its defs are only the types this request reaches
	n, err := g.structSchema(reflect.TypeOf(spec.New()).Elem(), toServer, op+".request", false)
	if err != nil {
		return nil, err
	}
	if len(g.defs) > 0 {
		n.Defs = g.defs
	}
	return json.Marshal(n)
}
