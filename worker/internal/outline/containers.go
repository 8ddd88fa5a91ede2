package outline

import (
	"strings"

	"github.com/mafredri/cdp/protocol/accessibility"
)

// container keeps n as a node around its children. Tables and lists with nothing in them
// are left out; landmarks, dialogs and articles are kept even when empty.
func (c *converter) container(x *frameIndex, n *axNode, r string, keepEmpty bool) []*node {
	out := &node{role: outlineRole(r), name: x.safeName(n), backend: n.backend(), session: x.session}
	var key accessibility.AXNodeID
	if r == "listitem" {
		key = n.NodeID
	}
	out.children = dropRepeats(out.name, c.children(x, n, key))
	switch r {
	case "list", "directory", "menu", "menubar", "tablist", "tree", "table", "grid", "treegrid":
		keepEmpty = false
	case "listitem":
		// An item's leading text is its label: "Row A" with a Delete button is one line.
		foldText(out)
		if out.text == "" && out.name == "" && len(out.children) > 0 && out.children[0].isText() {
			out.text = out.children[0].text
			out.children = out.children[1:]
		}
		keepEmpty = out.text != ""
	}
	if !keepEmpty && len(out.children) == 0 && out.name == "" {
		return nil
	}
	return []*node{out}
}

// label is a <label>'s text: dropped where it repeats the name of a control in the frame
// (it is that control's name), kept otherwise; controls inside it are outlined.
func (c *converter) label(x *frameIndex, n *axNode) []*node {
	kids := c.children(x, n, n.NodeID)
	kept := kids[:0]
	for _, k := range kids {
		if k.isText() && x.controlNames[k.text] {
			continue
		}
		kept = append(kept, k)
	}
	return kept
}

// iframe holds its child frame's outline.
func (c *converter) iframe(x *frameIndex, n *axNode) []*node {
	out := &node{role: "iframe", name: x.safeName(n)}
	if child := c.byOwner[NodeKey{Session: x.session, Backend: n.backend()}]; child != nil && !c.attached[child] && n.backend() != 0 {
		c.attached[child] = true
		out.children = c.walk(child, child.root, "")
	}
	return []*node{out}
}

// dropRepeats drops text and images that only repeat the parent's name (Chromium gives a
// button or heading a StaticText child equal to its name).
func dropRepeats(name string, kids []*node) []*node {
	if name == "" {
		return kids
	}
	kept := kids[:0]
	for _, k := range kids {
		if (k.isText() && k.text == name) || (k.role == "img" && k.name == name && len(k.children) == 0) {
			continue
		}
		kept = append(kept, k)
	}
	return kept
}

// foldText moves a node's children into its text when they are all text: a list item or
// a status message is one line.
func foldText(n *node) {
	if len(n.children) == 0 {
		return
	}
	parts := make([]string, 0, len(n.children))
	for _, k := range n.children {
		if !k.isText() {
			return
		}
		parts = append(parts, k.text)
	}
	n.text = strings.Join(parts, " ")
	n.children = nil
}
