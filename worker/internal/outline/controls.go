package outline

import "github.com/mafredri/cdp/protocol/accessibility"

// field is a control holding typed input. Its name is its label; its value and subtree are
// never read.
func (c *converter) field(x *frameIndex, n *axNode) []*node {
	r := outlineRole(n.role)
	switch {
	case x.isPassword(n):
		r = "password"
		c.password = true
	case n.kind != kindField && n.role != "combobox":
		r = "textbox" // contenteditable content, whatever its role
	}
	return []*node{c.control(x, n, r)}
}

// control is an actionable node with its name and states.
func (c *converter) control(x *frameIndex, n *axNode, r string) *node {
	return &node{
		role:     r,
		name:     x.safeName(n),
		backend:  n.backend(),
		session:  x.session,
		action:   n.backend() != 0,
		disabled: n.is(accessibility.AXPropertyNameDisabled),
		required: n.is(accessibility.AXPropertyNameRequired),
	}
}

// leaf is a control whose children are presentational (ARIA "children presentational"):
// their text only repeats its name.
func (c *converter) leaf(x *frameIndex, n *axNode, r string) []*node {
	out := c.control(x, n, outlineRole(r))
	switch r {
	case "button":
		// A file input is a button with a value (the chosen file's name, or "No file
		// chosen"); no other button has one. The value itself is never read.
		if n.hasValue() {
			out.role = "file"
		}
	case "checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio":
		out.checked = n.token(accessibility.AXPropertyNameChecked)
		switch out.checked {
		case "true", "mixed":
		default:
			out.checked = "false"
		}
		if r == "checkbox" && robotName(out.name) {
			c.robot = true
		}
	}
	return []*node{out}
}

// actionBox is an actionable node whose contents are still outlined: a link holding an
// image and text, a menu item with a submenu.
func (c *converter) actionBox(x *frameIndex, n *axNode, r string) []*node {
	out := c.control(x, n, outlineRole(r))
	if r == "link" {
		out.href = c.href(valueString(n.prop(accessibility.AXPropertyNameURL)))
	}
	out.children = dropRepeats(out.name, c.children(x, n, n.NodeID))
	return []*node{out}
}
