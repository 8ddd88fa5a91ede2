package outline

import (
	"strings"
)

var cellRoles = map[string]bool{"cell": true, "gridcell": true, "columnheader": true, "rowheader": true}

// row outlines a table row as one node named by its cells' text joined with " | ". What a
// cell holds beyond text (a link, a button, a field) becomes the row's children, so it keeps
// its ref. A cell's own accessible name is not used: Chromium computes it from contents,
// values of fields in the cell included.
func (c *converter) row(x *frameIndex, n *axNode) []*node {
	out := &node{role: "row", backend: n.backend(), session: x.session}
	var cells []string
	headers := 0
	var visit func(n *axNode, depth int)
	visit = func(n *axNode, depth int) {
		for _, child := range n.kids {
			r := child.role
			if (child.Ignored || child.kind == kindWrapper && !cellRoles[r]) && depth < 8 {
				if !child.seen {
					child.seen = true
					visit(child, depth+1)
				}
				continue
			}
			var kids []*node
			if cellRoles[r] {
				if child.seen {
					continue
				}
				child.seen = true
				if r == "columnheader" {
					headers++
				}
				kids = c.children(x, child, child.NodeID)
			} else {
				kids = c.walk(x, child, "")
			}
			var text []string
			for _, k := range kids {
				if t := cellText(k); t != "" {
					text = append(text, t)
				}
				if !k.isText() {
					out.children = append(out.children, k)
				}
			}
			cells = append(cells, strings.Join(text, " "))
		}
	}
	visit(n, 0)
	out.header = headers > 0 && headers == len(cells)
	out.name = strings.Join(cells, " | ")
	if strings.Trim(out.name, " |") == "" && len(out.children) == 0 {
		return nil
	}
	return []*node{out}
}

// cellText is what a node adds to its cell's text: text, and the names of things a person
// reads (links, buttons, headings, images); never anything of a field.
func cellText(k *node) string {
	switch k.role {
	case "text":
		return k.text
	case "link", "button", "heading", "img", "menuitem", "tab", "option", "treeitem":
		return k.name
	}
	return ""
}
