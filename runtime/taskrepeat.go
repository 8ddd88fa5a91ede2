package runtime

import "github.com/fastbrowser/fastbrowser/transport"

// A task never repeats an action that did nothing (docs/models.md "Repeats"): once an action
// on an element produced no observed change, any further action on that element in that
// document is refused before dispatch. A page that asks to be clicked again (a prompt
// injection) gets one click, not eight.
//
// The same element is the same ref in the same document, or the same role and non-empty
// accessible name in it: a model cannot get past the rule by locating the element again or
// by picking its namesake. No observed change is unchangedAfter's.

// elementKey names an element of a document, by ref or by role and name.
type elementKey struct{ doc, ref, role, name string }

// keysOf are the keys that name n in document doc.
func keysOf(doc string, n *transport.OutlineNode) []elementKey {
	keys := []elementKey{{doc: doc, ref: n.Ref}}
	if n.Name != "" {
		keys = append(keys, elementKey{doc: doc, role: n.Role, name: n.Name})
	}
	return keys
}

// repeatGuard is a task's memory of its actions on elements: in this process only, never
// output.
type repeatGuard struct {
	closed map[elementKey]int    // an element's key → the turn whose action changed nothing
	typed  map[elementKey]string // the text last typed into the element
}

// closedBy is the turn whose action closed n (0: n is open).
func (g *repeatGuard) closedBy(doc string, n *transport.OutlineNode) int {
	for _, k := range keysOf(doc, n) {
		if turn := g.closed[k]; turn > 0 {
			return turn
		}
	}
	return 0
}

// note records the outcome of an action on n in doc, dispatched on turn, and says whether
// it changed anything: the page's observed change, or for a type the act's own verification
// that the field holds the text — an outline never shows a field's value — when it is not
// the text this task last typed there. An action that changed nothing closes n.
func (g *repeatGuard) note(doc string, n *transport.OutlineNode, turn int, a actArgs, verified, pageChanged bool) bool {
	changed := pageChanged
	if a.Action == transport.ActType {
		k := keysOf(doc, n)[0]
		last, typedBefore := g.typed[k]
		changed = changed || (verified && (!typedBefore || last != a.Text))
		if g.typed == nil {
			g.typed = map[elementKey]string{}
		}
		g.typed[k] = a.Text
	}
	if !changed {
		if g.closed == nil {
			g.closed = map[elementKey]int{}
		}
		for _, k := range keysOf(doc, n) {
			g.closed[k] = turn
		}
	}
	return changed
}

// unchangedAfter: the settled observation after an action shows the page as the one before
// it did — the same document, URL and title, and an outline diff of no line added or
// removed.
func unchangedAfter(before, after *transport.ObserveResult, d transport.OutlineDiff) bool {
	return !d.DocumentChange && d.Added == 0 && d.Removed == 0 && before.URL == after.URL && before.Title == after.Title
}
