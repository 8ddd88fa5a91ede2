package transport

import (
	"bytes"
	"encoding/json"
	"slices"
)

// schemaNode is one JSON Schema (draft 2020-12) node of the protocol schema (schema.go). Only
// the keywords the generator writes exist; properties keep the Go declaration order so the
// printed schema reads like the types.
type schemaNode struct {
	Ref                  string        `json:"$ref,omitempty"`
	Description          string        `json:"description,omitempty"`
	Type                 string        `json:"type,omitempty"`
	Const                any           `json:"const,omitempty"`
	Enum                 []string      `json:"enum,omitempty"`
	Pattern              string        `json:"pattern,omitempty"`
	MinLength            *int          `json:"minLength,omitempty"`
	Minimum              *int          `json:"minimum,omitempty"`
	Properties           *properties   `json:"properties,omitempty"`
	Required             []string      `json:"required,omitempty"`
	AdditionalProperties any           `json:"additionalProperties,omitempty"` // false, or a node for a map
	Items                *schemaNode   `json:"items,omitempty"`
	AnyOf                []*schemaNode `json:"anyOf,omitempty"`
	OneOf                []*schemaNode `json:"oneOf,omitempty"`
	AllOf                []*schemaNode `json:"allOf,omitempty"`
	If                   *schemaNode   `json:"if,omitempty"`
	Then                 *schemaNode   `json:"then,omitempty"`
	// Defs is set only on the root of a schema that stands alone (RequestSchema); the
	// protocol schema keeps its definitions on schemaDoc.
	Defs map[string]*schemaNode `json:"$defs,omitempty"`
}

// property is one named member of properties.
type property struct {
	name string
	node *schemaNode
}

// properties is an object's members in declaration order.
type properties []property

func (ps *properties) get(name string) *schemaNode {
	for _, p := range *ps {
		if p.name == name {
			return p.node
		}
	}
	return nil
}

func (ps *properties) set(name string, n *schemaNode) {
	for i, p := range *ps {
		if p.name == name {
			(*ps)[i].node = n
			return
		}
	}
	*ps = append(*ps, property{name, n})
}

func (ps *properties) remove(name string) {
	for i, p := range *ps {
		if p.name == name {
			*ps = append((*ps)[:i], (*ps)[i+1:]...)
			return
		}
	}
}

func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.name)
		v, err := json.Marshal(p.node)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// require adds name to the required members, once.
func (n *schemaNode) require(name string) {
	if !slices.Contains(n.Required, name) {
		n.Required = append(n.Required, name)
	}
}

// nullable lets n also be null.
func nullable(n *schemaNode) *schemaNode {
	return &schemaNode{AnyOf: []*schemaNode{n, {Type: "null"}}}
}

func refTo(def string) *schemaNode { return &schemaNode{Ref: "#/$defs/" + def} }
