package outline

import "strings"

// Find returns every actionable element in the frames with this role and accessible name,
// regardless of budgets and collapsed runs, in document order, without refs. With exact the
// name must equal the element's after trimming; otherwise it must be contained in it, case
// and white space folded. The role is the outline's; "textbox" also finds password fields
// and "button" file inputs. An empty role matches every actionable element.
func Find(frames []Frame, role, name string, exact bool) []Element {
	want := strings.TrimSpace(name)
	if !exact {
		want = strings.ToLower(fold(name))
	}
	role = strings.TrimSpace(role)
	var out []Element
	eachNode(frames, func(n *node) {
		if n.action && roleMatches(role, n.role) && nameMatches(want, n.name, exact) {
			out = append(out, Element{Backend: n.backend, Session: n.session, Role: n.role, Name: cut(n.name), Disabled: n.disabled})
		}
	})
	return out
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

func nameMatches(want, got string, exact bool) bool {
	if exact {
		return want == strings.TrimSpace(got)
	}
	return strings.Contains(strings.ToLower(got), want)
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
		if n.backend != 0 && roleMatches(role, n.role) && same(name, n.name) && (label == "" || fieldRoles[n.role] && same(label, n.name)) {
			out = append(out, Element{Backend: n.backend, Session: n.session, Role: n.role, Name: cut(n.name)})
		}
	})
	return out
}
