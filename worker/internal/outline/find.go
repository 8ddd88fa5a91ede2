package outline

import "strings"

// Find returns every actionable element in the frames with this role and accessible name,
// regardless of budgets and collapsed runs, in document order, without refs. With exact the
// name must equal the element's with white space folded; otherwise it must be contained in
// it, case and white space folded. The role is the outline's; "textbox" also finds password
// fields and "button" file inputs. An empty role matches every actionable element.
func Find(frames []Frame, role, name string, exact bool) []Element {
	want := fold(name)
	match := func(got string) bool { return got == want }
	if !exact {
		want = strings.ToLower(want)
		match = func(got string) bool { return strings.Contains(strings.ToLower(got), want) }
	}
	return Lookup(frames, role, match, name, true, nil).Found
}

// Match is what one look for a role and a name found: the elements that match and, when
// none does, the element a person most likely meant (Near), if any.
type Match struct {
	Found []Element
	Near  *Element
}

// Lookup finds the elements whose role and name match, in document order: actionable ones
// only (act's targets) or, with actionable false, any the outline keeps with its DOM node
// (containers, headings, live regions, rows and tables too). name is given each element's
// accessible name with white space folded (nil: any name). In the same walk it keeps the
// best near miss of the same kind of element, for the not-found message, when the name
// wanted is a string (near; "" for a regex or no name): the same name under another role,
// then the same role with a name equal ignoring case, then the same role with a name
// containing the wanted one or contained in it (ignoring case), then another role with a
// name equal ignoring case. Names longer than budgets.OutlineNameChars are cut with clip
// (as Options.Clip): they are quoted in results and messages.
func Lookup(frames []Frame, role string, name func(string) bool, near string, actionable bool, clip Clip) Match {
	role = strings.TrimSpace(role)
	wanted := fold(near)
	lower := strings.ToLower(wanted)
	var m Match
	nearRank := 0
	eachNode(frames, func(n *node) {
		if n.backend == 0 || actionable && !n.action {
			return
		}
		sameRole := roleMatches(role, n.role)
		folded := fold(n.name)
		if sameRole && (name == nil || name(folded)) {
			m.Found = append(m.Found, elementOf(n, clip))
			return
		}
		if len(m.Found) > 0 || wanted == "" || folded == "" || nearRank == 1 {
			return
		}
		got := strings.ToLower(folded)
		rank := 0
		switch {
		case !sameRole && folded == wanted:
			rank = 1
		case sameRole && got == lower:
			rank = 2
		case sameRole && (strings.Contains(got, lower) || strings.Contains(lower, got)):
			rank = 3
		case got == lower:
			rank = 4
		}
		if rank > 0 && (nearRank == 0 || rank < nearRank) {
			e := elementOf(n, clip)
			m.Near, nearRank = &e, rank
		}
	})
	if len(m.Found) > 0 {
		m.Near = nil
	}
	return m
}

func elementOf(n *node, clip Clip) Element {
	return Element{Backend: n.backend, Session: n.session, Role: n.role, Name: cut(n.name, clip), Disabled: n.disabled}
}

// eachNode visits every node the frames convert to, in document order, regardless of
// budgets and collapsed runs.
func eachNode(frames []Frame, visit func(*node)) {
	var walk func([]*node)
	walk = func(ns []*node) {
		for _, n := range ns {
			visit(n)
			walk(n.children)
		}
	}
	walk(newConverter(frames, "").convert())
}

func roleMatches(want, got string) bool {
	if want == "" || want == got {
		return true
	}
	for _, alias := range roleAliases[want] {
		if alias == got {
			return true
		}
	}
	return false
}

// fieldRoles are the outline roles of elements that hold typed text.
var fieldRoles = map[string]bool{"textbox": true, "password": true, "searchbox": true, "combobox": true, "spinbutton": true}

// Redactable returns every element, actionable or not, that a redaction rule selects: role
// as in Find ("" = any), name equal to the accessible name ignoring case and surrounding
// white space ("" = any), and label the same comparison made against fields only (a field's
// accessible name is its label). A rule with nothing set selects nothing.
func Redactable(frames []Frame, role, name, label string) []Element {
	if role == "" && name == "" && label == "" {
		return nil
	}
	role = strings.TrimSpace(role)
	same := func(want, got string) bool {
		return want == "" || strings.EqualFold(strings.TrimSpace(want), strings.TrimSpace(got))
	}
	var out []Element
	eachNode(frames, func(n *node) {
		if n.action && roleMatches(role, n.role) && same(name, n.name) && (label == "" || fieldRoles[n.role] && same(label, n.name)) {
			// The name is never quoted: masking needs only the node.
			out = append(out, Element{Backend: n.backend, Session: n.session, Role: n.role, Name: cut(n.name, nil)})
		}
	})
	return out
}
