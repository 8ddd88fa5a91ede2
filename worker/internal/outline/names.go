package outline

import (
	"strings"

	"github.com/mafredri/cdp/protocol/accessibility"
)

// Names without values. Chromium computes an accessible name from contents or from a label,
// and when those contain a text field the name embeds the field's value: a <td> holding an
// <input> is named by the input's text, a button wrapping an input likewise. safeName finds
// those cases and recomputes the name from the same elements' own text, fields left out.

// safeName is n's accessible name, white space folded, with no field's value in it.
func (x *frameIndex) safeName(n *axNode) string {
	name := fold(n.rawName())
	if name == "" || !x.hasValues {
		return name
	}
	roots := x.nameRoots(n)
	leaks := false
	for _, r := range roots {
		x.eachValue(r, n, func(v string) {
			if v != "" && strings.Contains(name, v) {
				leaks = true
			}
		})
	}
	if !leaks {
		return name
	}
	parts := make([]string, 0, len(roots))
	for _, r := range roots {
		var b strings.Builder
		x.ownText(r, &b, 0)
		parts = append(parts, b.String())
	}
	return fold(strings.Join(parts, " "))
}

// nameRoots are the nodes whose contents n's name was computed from: n itself for a name
// from contents, the label or aria-labelledby targets for a name from related elements, and
// none for a name from an attribute (aria-label, title, placeholder, alt), which is author
// text. Chromium lists the candidate sources in order; the winner is the first with a value
// that is not superseded. With no sources listed, contents and every related node count.
func (x *frameIndex) nameRoots(n *axNode) []*axNode {
	var roots []*axNode
	addRelated := func(vs ...*accessibility.AXValue) {
		for _, v := range vs {
			if v == nil {
				continue
			}
			for _, r := range v.RelatedNodes {
				if a := x.byDOM(r.BackendDOMNodeID); a != nil {
					roots = append(roots, a)
				}
			}
		}
	}
	if n.Name != nil && len(n.Name.Sources) > 0 {
		for i := range n.Name.Sources {
			s := &n.Name.Sources[i]
			if s.Value == nil || (s.Superseded != nil && *s.Superseded) {
				continue
			}
			switch s.Type {
			case accessibility.AXValueSourceTypeContents:
				return []*axNode{n}
			case accessibility.AXValueSourceTypeRelatedElement:
				addRelated(s.Value, s.AttributeValue, s.NativeSourceValue, n.prop(accessibility.AXPropertyNameLabelledby))
				return roots
			default:
				return nil
			}
		}
	}
	if n.Name != nil {
		addRelated(n.Name)
		for i := range n.Name.Sources {
			s := &n.Name.Sources[i]
			addRelated(s.Value, s.AttributeValue, s.NativeSourceValue)
		}
	}
	addRelated(n.prop(accessibility.AXPropertyNameLabelledby))
	return append(roots, n)
}

// hasValued reports whether n's subtree holds a field with a value.
func (x *frameIndex) hasValued(n *axNode) bool {
	if n.valued != 0 {
		return n.valued > 0
	}
	n.valued = -1 // in progress: a cycle reads as "no"
	v := !n.Ignored && x.isField(n) && n.hasValue()
	for _, c := range n.kids {
		if v {
			break
		}
		v = x.hasValued(c)
	}
	if v {
		n.valued = 1
	}
	return v
}

// eachValue calls f with the folded value of every field under r. self, the node being
// named, is skipped: a field's own name never embeds its own value.
func (x *frameIndex) eachValue(r, self *axNode, f func(string)) {
	var walk func(n *axNode, depth int)
	walk = func(n *axNode, depth int) {
		if depth > 256 || !x.hasValued(n) {
			return
		}
		if n != self && !n.Ignored && x.isField(n) {
			f(fold(valueText(n)))
			return
		}
		for _, c := range n.kids {
			walk(c, depth+1)
		}
	}
	walk(r, 0)
}

// valueText is a value as text, for comparison only: a string as is, a number as written.
func valueText(n *axNode) string {
	if n.Value == nil {
		return ""
	}
	if s := valueString(n.Value); s != "" {
		return s
	}
	raw := string(n.Value.Value)
	if raw == "null" || raw == "true" || raw == "false" || strings.HasPrefix(raw, `"`) {
		return ""
	}
	return raw
}

// ownText writes the static text under n in order, leaving out fields and their subtrees.
func (x *frameIndex) ownText(n *axNode, b *strings.Builder, depth int) {
	if depth > 256 {
		return
	}
	if !n.Ignored {
		if x.isField(n) {
			return
		}
		if n.role == "StaticText" {
			b.WriteString(n.rawName())
			return
		}
	}
	for _, c := range n.kids {
		x.ownText(c, b, depth+1)
	}
}
