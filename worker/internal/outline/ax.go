package outline

import (
	"bytes"
	"encoding/json"

	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
)

// axNode is one Chromium AX node with what the outline reads of it most decoded once: its
// role, how the role is treated, and its children as pointers.
type axNode struct {
	*accessibility.AXNode
	role   string
	kind   kind
	kids   []*axNode
	seen   bool // outlined already (guards against a cycle or a node listed twice)
	valued int8 // memo for hasValued: 1 yes, -1 no, 0 not known yet
}

// Reading Chromium's AX values. Every AXValue carries raw JSON; these helpers decode only
// the few shapes the outline uses, and a value of an unexpected shape reads as absent.

func (n *axNode) rawName() string { return valueString(n.Name) }

func (n *axNode) backend() dom.BackendNodeID {
	if n.BackendDOMNodeID == nil {
		return 0
	}
	return *n.BackendDOMNodeID
}

// valueString decodes a string value. Most of Chromium's strings need no unescaping, so
// those are sliced rather than run through encoding/json.
func valueString(v *accessibility.AXValue) string {
	if v == nil || len(v.Value) < 2 || v.Value[0] != '"' {
		return ""
	}
	raw := v.Value
	if bytes.IndexByte(raw[1:len(raw)-1], '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func (n *axNode) prop(name accessibility.AXPropertyName) *accessibility.AXValue {
	for i := range n.Properties {
		if n.Properties[i].Name == name {
			return &n.Properties[i].Value
		}
	}
	return nil
}

// token is a token, string or boolean property as text ("true", "mixed", "plaintext").
func (n *axNode) token(name accessibility.AXPropertyName) string {
	v := n.prop(name)
	if v == nil {
		return ""
	}
	switch string(v.Value) {
	case "true", "false":
		return string(v.Value)
	}
	return valueString(v)
}

func (n *axNode) is(name accessibility.AXPropertyName) bool { return n.token(name) == "true" }

func (n *axNode) editable() bool { return n.prop(accessibility.AXPropertyNameEditable) != nil }

func (n *axNode) number(name accessibility.AXPropertyName) int {
	v := n.prop(name)
	if v == nil {
		return 0
	}
	var f float64
	if json.Unmarshal(v.Value, &f) != nil || f < 0 || f > 1000 {
		return 0
	}
	return int(f)
}

// hasValue reports whether Chromium gave the node a value at all. Only the presence is
// used (it tells a file input from a button); what the value says never leaves the package.
func (n *axNode) hasValue() bool {
	return n.Value != nil && len(n.Value.Value) > 0 && string(n.Value.Value) != "null"
}
