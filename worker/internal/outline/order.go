package outline

// contentFirst puts the page's own content first and the top-level banner, navigation,
// complementary and contentinfo landmarks after it, grouped in that order, so that a budget
// cuts menus and footers before content. Within each group document order is kept.
func contentFirst(top []*node) []*node {
	rank := func(n *node) int {
		for i, r := range landmarkOrder {
			if n.role == r {
				return i + 1
			}
		}
		return 0
	}
	out := make([]*node, 0, len(top))
	for group := 0; group <= len(landmarkOrder); group++ {
		for _, n := range top {
			if rank(n) == group {
				out = append(out, n)
			}
		}
	}
	return out
}
