package outline_test

import (
	"encoding/json"
	"strconv"

	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// ax describes one synthetic AX node, shaped as Chromium 156 reports them (see the golden
// tests for the real thing).
type ax struct {
	role, name string
	value      any // nil: none
	props      map[accessibility.AXPropertyName]any
	ignored    bool
	backend    dom.BackendNodeID // 0: assigned
	sources    []accessibility.AXValueSource
	kids       []*ax
}

func n(role, name string, kids ...*ax) *ax { return &ax{role: role, name: name, kids: kids} }

// text is a StaticText node.
func text(s string) *ax { return n("StaticText", s) }

// wrap is an ignored node holding kids, as Chromium reports a plain <div>.
func wrap(kids ...*ax) *ax { return &ax{role: "none", ignored: true, kids: kids} }

func (a *ax) prop(name accessibility.AXPropertyName, v any) *ax {
	if a.props == nil {
		a.props = map[accessibility.AXPropertyName]any{}
	}
	a.props[name] = v
	return a
}

func (a *ax) val(v any) *ax                          { a.value = v; return a }
func (a *ax) be(b dom.BackendNodeID) *ax             { a.backend = b; return a }
func (a *ax) disabled() *ax                          { return a.prop("disabled", true) }
func (a *ax) checked(v string) *ax                   { return a.prop("checked", v) }
func (a *ax) level(l int) *ax                        { return a.prop("level", l) }
func (a *ax) url(u string) *ax                       { return a.prop("url", u) }
func (a *ax) editable() *ax                          { return a.prop("editable", "plaintext") }
func (a *ax) from(s accessibility.AXValueSource) *ax { a.sources = append(a.sources, s); return a }

// field is a text field with a value, rendered by Chromium as editable text children.
func field(role, name, value string) *ax {
	f := n(role, name).editable().prop("focusable", true)
	if value != "" {
		f.val(value)
		f.kids = []*ax{n("generic", "", text(value).editable()).editable()}
	}
	return f
}

// frame flattens a tree rooted at a RootWebArea into AX nodes: ids in document order,
// backend ids 1000+id unless set.
func frame(root *ax) outline.Frame { return outline.Frame{Nodes: flatten(root)} }

func doc(kids ...*ax) []outline.Frame {
	return []outline.Frame{frame(n("RootWebArea", "Page", kids...))}
}

func flatten(root *ax) []accessibility.AXNode {
	var out []accessibility.AXNode
	next := 0
	var walk func(a *ax, parent *accessibility.AXNodeID) accessibility.AXNodeID
	walk = func(a *ax, parent *accessibility.AXNodeID) accessibility.AXNodeID {
		next++
		id := accessibility.AXNodeID(strconv.Itoa(next))
		b := a.backend
		if b == 0 {
			b = dom.BackendNodeID(1000 + next)
		}
		node := accessibility.AXNode{NodeID: id, Ignored: a.ignored, ParentID: parent, BackendDOMNodeID: &b,
			Role: value("role", a.role)}
		if !a.ignored {
			node.Name = value("computedString", a.name)
			node.Name.Sources = a.sources
		}
		if a.value != nil {
			node.Value = value("string", a.value)
		}
		for k, v := range a.props {
			node.Properties = append(node.Properties, accessibility.AXProperty{Name: k, Value: *value("token", v)})
		}
		i := len(out)
		out = append(out, node)
		pid := id
		for _, k := range a.kids {
			out[i].ChildIDs = append(out[i].ChildIDs, walk(k, &pid))
		}
		return id
	}
	walk(root, nil)
	return out
}

func value(typ accessibility.AXValueType, v any) *accessibility.AXValue {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return &accessibility.AXValue{Type: typ, Value: raw}
}

// opts are roomy budgets with refs e1, e2, … and a call count per element.
func opts(calls map[dom.BackendNodeID]int) outline.Options {
	o := outline.Options{MaxNodes: 1000, MaxDepth: 30, MaxTextChars: 100000, PageURL: "http://site.test/here?q=1"}
	seq := 0
	o.RefFor = func(k outline.NodeKey) string {
		if calls != nil {
			calls[k.Backend]++
		}
		seq++
		return "e" + strconv.Itoa(seq)
	}
	return o
}
