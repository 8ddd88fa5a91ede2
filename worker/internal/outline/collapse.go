package outline

import "strings"

// Runs of alike records are summarised: more than collapseOver siblings of one collapsible
// role and one shape (the roles of their descendants) show the first collapseKeep and then
// one node counting the rest. Controls and text are never collapsed: six text fields in a
// form are six different questions.
const (
	collapseOver = 5
	collapseKeep = 3
)

// collapse summarises long runs in kids and, first, in every subtree; it also sets shapes.
func collapse(kids []*node) []*node {
	for _, k := range kids {
		k.children = collapse(k.children)
		k.shape = shapeOf(k)
	}
	var out []*node
	for i := 0; i < len(kids); {
		j := i + 1
		if collapsible[kids[i].role] {
			for j < len(kids) && kids[j].shape == kids[i].shape {
				j++
			}
		}
		if j-i > collapseOver {
			out = append(out, kids[i:i+collapseKeep]...)
			out = append(out, &node{role: kids[i].role, more: j - i - collapseKeep})
		} else {
			out = append(out, kids[i:j]...)
		}
		i = j
	}
	return out
}

// shapeOf is a node's role and its children's shapes, names left out; a header row differs
// from a data row.
func shapeOf(n *node) string {
	if len(n.children) == 0 && !n.header {
		return n.role
	}
	var b strings.Builder
	b.WriteString(n.role)
	if n.header {
		b.WriteByte('!')
	}
	b.WriteByte('(')
	for i, k := range n.children {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k.shape)
	}
	b.WriteByte(')')
	return b.String()
}
