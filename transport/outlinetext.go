package transport

import (
	"strconv"
	"strings"
)

// OutlineText is the text form of an outline (ObserveResult.Text): one line per node, two
// spaces of indent per level (worker/internal/outline's package doc describes the format). The worker
// renders a page's outline with it; the runtime renders what a model is shown.
func OutlineText(nodes []OutlineNode, truncated bool) string {
	var b strings.Builder
	renderNodes(&b, nodes, 0)
	if truncated {
		b.WriteString("… truncated\n")
	}
	return b.String()
}

func renderNodes(b *strings.Builder, nodes []OutlineNode, depth int) {
	for i := range nodes {
		n := &nodes[i]
		for range depth {
			b.WriteString("  ")
		}
		renderLine(b, n)
		b.WriteByte('\n')
		renderNodes(b, n.Children, depth+1)
	}
}

func renderLine(b *strings.Builder, n *OutlineNode) {
	switch {
	case n.More > 0:
		b.WriteString("… " + strconv.Itoa(n.More) + " more " + n.Role + "s")
		return
	case n.Role == "text":
		b.WriteString("text " + strconv.Quote(n.Text))
		return
	case n.Role == "row" && n.Ref == "":
		b.WriteString("row: " + n.Name)
		return
	}
	b.WriteString(n.Role)
	if n.Level > 0 {
		b.WriteString("[" + strconv.Itoa(n.Level) + "]")
	}
	if n.Ref != "" {
		b.WriteString(" [" + n.Ref + "]") // the seed: each element an operation can act on shows its ID in brackets
	}
	if n.Name != "" {
		b.WriteString(" " + strconv.Quote(n.Name))
	}
	if n.Text != "" {
		b.WriteString(" " + strconv.Quote(n.Text))
	}
	if n.Selected != "" {
		b.WriteString(" selected=" + strconv.Quote(n.Selected))
	}
	if len(n.Options) > 0 {
		b.WriteString(" options=[")
		for i, o := range n.Options {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(o))
		}
		b.WriteByte(']')
	}
	if n.Checked != "" {
		b.WriteString(" checked=" + n.Checked)
	}
	if n.Href != "" {
		b.WriteString(" -> " + n.Href)
	}
	if n.Required {
		b.WriteString(" required")
	}
	if n.Disabled {
		b.WriteString(" disabled")
	}
}
