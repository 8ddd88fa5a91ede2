package outline

import (
	"net/url"

	"github.com/mafredri/cdp/protocol/accessibility"
)

// converter turns frames' AX trees into one tree of nodes: ignored nodes and wrappers
// hoisted, text runs joined, child frames placed in their <iframe>s.
type converter struct {
	frames   []*frameIndex
	byOwner  map[NodeKey]*frameIndex // child frames by their <iframe>
	attached map[*frameIndex]bool
	page     *url.URL

	password bool // a password field was seen (for Classify)
	robot    bool // a checkbox named like "I'm not a robot" was seen
}

func newConverter(frames []Frame, pageURL string) *converter {
	c := &converter{byOwner: map[NodeKey]*frameIndex{}, attached: map[*frameIndex]bool{}}
	for _, f := range frames {
		x := indexFrame(f)
		if x.root == nil {
			continue
		}
		c.frames = append(c.frames, x)
		if x.owner != 0 {
			k := NodeKey{Session: x.ownerSess, Backend: x.owner}
			if _, dup := c.byOwner[k]; !dup {
				c.byOwner[k] = x
			}
		}
	}
	if u, err := url.Parse(pageURL); err == nil && u.Host != "" {
		c.page = u
	}
	return c
}

// convert outlines the main frame (the first frame without an owner), with child frames
// inside their <iframe> nodes. Frames whose <iframe> is not in the outline (hidden, or
// nested in a frame that was not fetched) are left out.
func (c *converter) convert() []*node {
	for _, x := range c.frames {
		if x.owner == 0 {
			c.attached[x] = true
			return c.walk(x, x.root, "")
		}
	}
	return nil
}

// walk outlines n. key is the inline context text under n belongs to ("" for none).
func (c *converter) walk(x *frameIndex, n *axNode, key accessibility.AXNodeID) []*node {
	if n.seen {
		return nil
	}
	n.seen = true
	if n.Ignored {
		return c.children(x, n, key)
	}
	r := n.role
	if n.editable() {
		if r == "StaticText" {
			return nil // the text of a field's value
		}
		return c.field(x, n)
	}
	switch n.kind {
	case kindDrop:
		return nil
	case kindText:
		var parent accessibility.AXNodeID
		if n.ParentID != nil {
			parent = *n.ParentID
		}
		if key == "" {
			key = parent
		}
		return []*node{{role: "text", text: n.rawName(), textKey: key, textParent: parent}}
	case kindField:
		return c.field(x, n)
	case kindLeaf:
		return c.leaf(x, n, r)
	case kindActionBox:
		return c.actionBox(x, n, r)
	case kindHeading:
		out := &node{role: "heading", name: x.safeName(n), level: n.number(accessibility.AXPropertyNameLevel), backend: n.backend(), session: x.session}
		out.children = dropRepeats(out.name, c.children(x, n, n.NodeID))
		if out.name == "" && len(out.children) == 0 {
			return nil
		}
		return []*node{out}
	case kindImage:
		if name := x.safeName(n); name != "" {
			return []*node{{role: "img", name: name}}
		}
		return nil
	case kindContainer:
		return c.container(x, n, r, true)
	case kindNamedBox:
		if x.safeName(n) == "" {
			return c.children(x, n, key)
		}
		return c.container(x, n, r, true)
	case kindLive:
		out := &node{role: r, name: x.safeName(n), backend: n.backend(), session: x.session}
		out.children = dropRepeats(out.name, c.children(x, n, n.NodeID))
		foldText(out)
		return []*node{out}
	case kindTable:
		return c.container(x, n, r, false)
	case kindRow:
		return c.row(x, n)
	case kindSelect:
		return c.selectLike(x, n, r)
	case kindFrame:
		return c.iframe(x, n)
	case kindLabel:
		return c.label(x, n)
	}
	if key == "" && (r == "paragraph" || x.hasDirectText(n)) {
		key = n.NodeID
	}
	return c.children(x, n, key)
}

// hasDirectText reports a wrapper with text of its own: its content is inline, so text in
// its wrapped children (<span>s) joins its text on one line.
func (x *frameIndex) hasDirectText(n *axNode) bool {
	for _, c := range n.kids {
		if !c.Ignored && c.role == "StaticText" {
			return true
		}
	}
	return false
}

// children outlines n's children in order, joining each run of adjacent text of one
// context and dropping text that is only white space.
func (c *converter) children(x *frameIndex, n *axNode, key accessibility.AXNodeID) []*node {
	var out []*node
	for _, child := range n.kids {
		for _, k := range c.walk(x, child, key) {
			if k.isText() && len(out) > 0 {
				if prev := out[len(out)-1]; prev.isText() && prev.textKey == k.textKey && k.textKey != "" {
					if prev.textParent != k.textParent {
						prev.text += " "
					}
					prev.text += k.text
					prev.textParent = k.textParent
					continue
				}
			}
			out = append(out, k)
		}
	}
	kept := out[:0]
	for _, k := range out {
		if k.isText() {
			k.text = fold(k.text)
			if k.text == "" {
				continue
			}
		}
		kept = append(kept, k)
	}
	return kept
}
