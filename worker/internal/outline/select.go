package outline

import (
	"strconv"
	"strings"

	"github.com/mafredri/cdp/protocol/accessibility"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// selectLike outlines a combobox or listbox: a <select> becomes one node carrying its
// options and chosen label; an editable or ARIA combobox is a field; an ARIA listbox is a
// container of options, each its own target.
func (c *converter) selectLike(x *frameIndex, n *axNode, r string) []*node {
	switch {
	case r == "combobox" && x.isSelectCombobox(n), r == "listbox" && x.isSelectListbox(n):
		out := c.control(x, n, r)
		var chosen []string
		eachOption(n, func(o *axNode) {
			label := fold(o.rawName())
			if o.is(accessibility.AXPropertyNameSelected) {
				chosen = append(chosen, label)
			}
			out.options = append(out.options, label)
		})
		if len(out.options) > budgets.SelectOptionsShown {
			rest := len(out.options) - budgets.SelectOptionsShown
			out.options = append(out.options[:budgets.SelectOptionsShown:budgets.SelectOptionsShown], "… "+strconv.Itoa(rest)+" more")
		}
		out.selected = strings.Join(chosen, ", ")
		return []*node{out}
	case r == "combobox":
		return c.field(x, n)
	}
	out := &node{role: "listbox", name: x.safeName(n)}
	var chosen []string
	eachOption(n, func(o *axNode) {
		if o.is(accessibility.AXPropertyNameSelected) {
			chosen = append(chosen, fold(o.rawName()))
		}
	})
	out.selected = strings.Join(chosen, ", ")
	out.children = c.children(x, n, "")
	if len(out.children) == 0 && out.name == "" {
		return nil
	}
	return []*node{out}
}
