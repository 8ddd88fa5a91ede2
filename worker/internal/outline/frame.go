package outline

import (
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
)

// frameIndex is one frame's AX tree, linked, with what the outline needs to know about the
// frame as a whole.
type frameIndex struct {
	root      *axNode
	owner     dom.BackendNodeID
	session   string // Frame.Session
	ownerSess string // Frame.OwnerSession
	passwords map[dom.BackendNodeID]bool

	all          []axNode
	byBackend    map[dom.BackendNodeID]*axNode // built on first use: only names need it
	controlNames map[string]bool               // names of controls, which label text repeats
	hasValues    bool                          // some field in the frame holds a value
}

func indexFrame(f Frame) *frameIndex {
	x := &frameIndex{owner: f.Owner, session: f.Session, ownerSess: f.OwnerSession, all: make([]axNode, len(f.Nodes)), controlNames: map[string]bool{}}
	if len(f.Passwords) > 0 {
		x.passwords = make(map[dom.BackendNodeID]bool, len(f.Passwords))
		for _, b := range f.Passwords {
			x.passwords[b] = true
		}
	}
	byID := make(map[accessibility.AXNodeID]*axNode, len(f.Nodes))
	links := 0
	for i := range f.Nodes {
		links += len(f.Nodes[i].ChildIDs)
	}
	kids := make([]*axNode, 0, links) // one backing array for every node's children
	for i := range f.Nodes {
		n := &x.all[i]
		n.AXNode = &f.Nodes[i]
		n.role, n.kind = roleOf(n.Role)
		byID[n.NodeID] = n
		if x.root == nil && n.ParentID == nil {
			x.root = n
		}
	}
	for i := range x.all {
		n := &x.all[i]
		start := len(kids)
		for _, id := range n.ChildIDs {
			if c := byID[id]; c != nil {
				kids = append(kids, c)
			}
		}
		n.kids = kids[start:len(kids):len(kids)]
		if !n.Ignored && x.isField(n) && n.hasValue() {
			x.hasValues = true
		}
	}
	for i := range x.all {
		n := &x.all[i]
		if n.Ignored {
			continue
		}
		switch n.kind {
		case kindField, kindLeaf, kindSelect:
			if name := x.safeName(n); name != "" {
				x.controlNames[name] = true
			}
		}
	}
	return x
}

// byDOM finds the AX node of a DOM node.
func (x *frameIndex) byDOM(b dom.BackendNodeID) *axNode {
	if x.byBackend == nil {
		x.byBackend = make(map[dom.BackendNodeID]*axNode, len(x.all))
		for i := range x.all {
			n := &x.all[i]
			if b := n.backend(); b != 0 {
				if _, dup := x.byBackend[b]; !dup {
					x.byBackend[b] = n
				}
			}
		}
	}
	return x.byBackend[b]
}

// isField reports a node that holds typed input: a text field of any kind, an editable
// combobox, a date or colour input, or the root of contenteditable content. Its value and
// its subtree (which renders the value as text) never reach the outline.
func (x *frameIndex) isField(n *axNode) bool {
	switch n.kind {
	case kindField:
		return true
	case kindSelect:
		return n.role == "combobox" && !x.isSelectCombobox(n)
	}
	return n.editable()
}

// isSelectCombobox reports a <select>: Chromium 156 gives it a MenuListPopup child holding
// the options. An editable combobox (<input list>) or an ARIA combobox has none.
func (x *frameIndex) isSelectCombobox(n *axNode) bool {
	if n.role != "combobox" || n.editable() {
		return false
	}
	for _, c := range n.kids {
		if c.role == "MenuListPopup" {
			return true
		}
	}
	return false
}

// isSelectListbox reports a <select multiple> (or size > 1). Chromium gives it the same role
// as an ARIA listbox; a native one is focusable, has the form-control "invalid" state, and
// its options expose no text children, where ARIA options have their text as children.
func (x *frameIndex) isSelectListbox(n *axNode) bool {
	if n.role != "listbox" || n.prop(accessibility.AXPropertyNameInvalid) == nil || !n.is(accessibility.AXPropertyNameFocusable) {
		return false
	}
	options := 0
	native := true
	eachOption(n, func(o *axNode) {
		options++
		if len(o.ChildIDs) > 0 {
			native = false
		}
	})
	return options > 0 && native
}

// eachOption calls f for every non-ignored option under n, in order, through groups and
// ignored wrappers.
func eachOption(n *axNode, f func(*axNode)) {
	var walk func(n *axNode, depth int)
	walk = func(n *axNode, depth int) {
		if depth > 8 {
			return
		}
		for _, c := range n.kids {
			if !c.Ignored && c.role == "option" {
				f(c)
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(n, 0)
}

// isPassword reports a password field: one the worker named in Frame.Passwords, or a text
// field whose value Chromium shows masked (it masks with U+2022 BULLET).
func (x *frameIndex) isPassword(n *axNode) bool {
	if x.passwords[n.backend()] {
		return true
	}
	if n.role != "textbox" {
		return false
	}
	v := valueString(n.Value)
	if v == "" {
		return false
	}
	for _, r := range v {
		if r != '•' {
			return false
		}
	}
	return true
}
