package outline

import (
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport"
)

// emitter turns nodes into the transport outline within the budgets, handing out refs in
// output order.
type emitter struct {
	opts      Options
	nodes     int
	chars     int
	full      bool // the node or text budget was reached: nothing more is added
	truncated bool
	elements  []Element
}

// emit returns the nodes at depth (the top level is depth 1) that fit. A node that would
// exceed the node or text budget ends the outline; a level deeper than MaxDepth is dropped
// and the outline goes on with what follows. Either sets truncated.
func (e *emitter) emit(ns []*node, depth int) []transport.OutlineNode {
	if len(ns) == 0 || e.full {
		return nil
	}
	if depth > e.opts.MaxDepth {
		e.truncated = true
		return nil
	}
	var out []transport.OutlineNode
	for _, n := range ns {
		o := transport.OutlineNode{
			Role: n.role, Name: cut(n.name, e.opts.Clip), Text: cut(n.text, e.opts.Clip), Level: n.level, Checked: n.checked,
			Selected: cut(n.selected, e.opts.Clip), Href: n.href, Disabled: n.disabled, Required: n.required, More: n.more,
		}
		cost := chars(o.Name) + chars(o.Text) + chars(o.Selected)
		if len(n.options) > 0 {
			o.Options = make([]string, len(n.options))
			for i, opt := range n.options {
				o.Options[i] = cut(opt, e.opts.Clip)
				cost += chars(o.Options[i])
			}
		}
		if e.nodes+1 > e.opts.MaxNodes || e.chars+cost > e.opts.MaxTextChars {
			e.full, e.truncated = true, true
			break
		}
		e.nodes++
		e.chars += cost
		if n.action {
			o.Ref = e.ref(n)
			e.elements = append(e.elements, Element{Ref: o.Ref, Backend: n.backend, Session: n.session, Role: n.role, Name: o.Name, Disabled: n.disabled})
		}
		o.Children = e.emit(n.children, depth+1)
		out = append(out, o)
		if e.full {
			break
		}
	}
	return out
}

func (e *emitter) ref(n *node) string {
	if e.opts.RefFor != nil {
		return e.opts.RefFor(NodeKey{Session: n.session, Backend: n.backend})
	}
	return "e" + strconv.Itoa(len(e.elements)+1)
}
