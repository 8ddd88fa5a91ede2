package transport

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// RolesFor lists the outline roles an action can apply to, so the matcher never picks a
// heading for a click or a button for typing.
var RolesFor = map[string][]string{
	ActClick:   {"button", "link", "menuitem", "tab", "checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"},
	ActType:    {"textbox", "searchbox", "spinbutton", "combobox", "password"},
	ActSelect:  {"combobox", "listbox"},
	ActCheck:   {"checkbox", "radio", "switch", "menuitemcheckbox"},
	ActUncheck: {"checkbox", "switch", "menuitemcheckbox"},
	ActPress:   {"textbox", "searchbox", "spinbutton", "combobox", "password", "button", "link"},
	ActUpload:  {"file", "button"},
}

// MatchElement is the deterministic, bounded matcher of a step and of a task's locate: among
// elements with a ref and a role that fits the action, an exact name match, else a
// case-insensitive one, else normalised containment (either way round). The first rule that
// finds anything decides: one element is the answer (with the rule's name), several are
// refused element_ambiguous, never guessed; none is element_not_found. op names the
// operation in the refusal.
func MatchElement(nodes []OutlineNode, instruction, action, op string) (OutlineNode, string, error) {
	fits := map[string]bool{}
	for _, r := range RolesFor[action] {
		fits[r] = true
	}
	var all []OutlineNode
	var walk func([]OutlineNode)
	walk = func(ns []OutlineNode) {
		for _, n := range ns {
			if n.Ref != "" && fits[n.Role] && !n.Disabled {
				all = append(all, n)
			}
			walk(n.Children)
		}
	}
	walk(nodes)
	rules := []struct {
		name  string
		match func(name string) bool
	}{
		{"exact", func(n string) bool { return strings.TrimSpace(n) == instruction }},
		{"caseInsensitive", func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), instruction) }},
		{"containment", func(n string) bool {
			a, b := normalise(n), normalise(instruction)
			return a != "" && b != "" && (strings.Contains(a, b) || (utf8.RuneCountInString(a) >= 3 && strings.Contains(b, a)))
		}},
	}
	for _, rule := range rules {
		var found []OutlineNode
		for _, c := range all {
			if rule.match(c.Name) {
				found = append(found, c)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], rule.name, nil
		default:
			return OutlineNode{}, "", NewError(op, PhaseValidate, CodeElementAmbiguous, RetryNever, NotAttempted,
				"%d elements match %q (%s match); %s", len(found), instruction, rule.name, ambiguityHint[op])
		}
	}
	return OutlineNode{}, "", NewError(op, PhaseValidate, CodeElementNotFound, RetryNever, NotAttempted,
		"no element that can %s matches %q", action, instruction)
}

// normalise lower-cases, drops punctuation and folds white space. A zero-width character is
// dropped, not a word break, as in every other comparison (FoldSpace): "Sign\u200bin" is
// "signin".
func normalise(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case ZeroWidth(r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// ambiguityHint says how to resolve an ambiguous match, by operation.
var ambiguityHint = map[string]string{"step": "give the step a target", OpTask: "locate it by a more exact name, or act on its ref"}
