package outline

import "strings"

// Find returns every actionable element in the frames with this role and accessible name,
// regardless of budgets and collapsed runs, in document order, without refs. With exact the
// name must equal the element's after trimming; otherwise it must be contained in it, case
// and white space folded. The role is the outline's; "textbox" also finds password fields
// and "button" file inputs. An empty role matches every actionable element.
func Find(frames []Frame, role, name string, exact bool) []Element {
	c := newConverter(frames, "")
	want := strings.TrimSpace(name)
	if !exact {
		want = strings.ToLower(fold(name))
	}
	role = strings.TrimSpace(role)
	var out []Element
	var walk func([]*node)
	walk = func(ns []*node) {
		for _, n := range ns {
			if n.action && roleMatches(role, n.role) && nameMatches(want, n.name, exact) {
				out = append(out, Element{Backend: n.backend, Role: n.role, Name: cut(n.name), Disabled: n.disabled})
			}
			walk(n.children)
		}
	}
	walk(c.convert())
	return out
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
