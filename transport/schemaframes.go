package transport

import "reflect"

// The frames of the protocol schema (schema.go): wire.go's structs, reflected like any other
// type, with the few members reflection cannot say (a raw "request" or "result" whose shape
// is the op's) set here.

// frameDef is one frame's definition. root: it is one of the frames of protocol v1 (the
// schema's top-level oneOf); the host-call frames are not.
type frameDef struct {
	name string
	typ  reflect.Type
	dir  direction
	root bool
	// fix sets what reflection cannot: ops are the table's names, results its results'
	// definitions, bodies the if/then of each op's request.
	fix func(n *schemaNode, ops []string, results, bodies []*schemaNode)
}

var frameDefs = []frameDef{
	{name: "frame.request", typ: reflect.TypeFor[RequestFrame](), dir: toServer, root: true,
		fix: func(n *schemaNode, ops []string, _, bodies []*schemaNode) {
			one := 1
			n.Properties.set("id", &schemaNode{Type: "string", MinLength: &one}) // Serve refuses ""
			n.Properties.set("op", &schemaNode{Type: "string", Enum: ops})
			n.Properties.set("request", nullable(&schemaNode{Type: "object"}))
			n.AllOf = bodies
		}},
	{name: "frame.response", typ: reflect.TypeFor[ResponseFrame](), dir: fromServer, root: true,
		fix: func(n *schemaNode, _ []string, results, _ []*schemaNode) {
			// Serve writes a failure as an error frame; a response always has a result.
			n.Properties.remove("error")
			n.Properties.set("result", &schemaNode{AnyOf: results})
			n.require("result")
		}},
	{name: "frame.error", typ: reflect.TypeFor[ErrorFrame](), dir: fromServer, root: true},
	{name: "frame.cancel", typ: reflect.TypeFor[CancelFrame](), dir: toServer, root: true},
	{name: "frame.ready", typ: reflect.TypeFor[ReadyFrame](), dir: fromServer, root: true},
	// Host calls (hostcall.go): the same frames, whose op and bodies belong to the host
	// (scenario/sessions, docs/sessions.md): described loosely, any op and any object.
	{name: "hostCall.request", typ: reflect.TypeFor[RequestFrame](), dir: toServer,
		fix: func(n *schemaNode, _ []string, _, _ []*schemaNode) {
			n.Properties.set("request", nullable(&schemaNode{Type: "object"}))
		}},
	{name: "hostCall.response", typ: reflect.TypeFor[ResponseFrame](), dir: fromServer,
		fix: func(n *schemaNode, _ []string, _, _ []*schemaNode) {
			n.Properties.remove("error")
			n.Properties.set("result", &schemaNode{Type: "object"})
			n.require("result")
		}},
}

// frames defines every frame. Raw members are left to the frame's fix; "v" is always 1.
func (g *schemaGen) frames(ops []string, results, bodies []*schemaNode) error {
	for _, f := range frameDefs {
		n, err := g.structSchema(f.typ, f.dir, f.name, true)
		if err != nil {
			return err
		}
		n.Properties.set("v", &schemaNode{Const: Version})
		if f.fix != nil {
			f.fix(n, ops, results, bodies)
		}
		g.defs[f.name] = n
	}
	return nil
}
