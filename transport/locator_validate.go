package transport

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// checkTarget checks a locator (act's, assert's, download's): exactly one kind, its match
// texts bounded and their regexes valid, refinements only on a look by something other
// than ref, at most one of nth/first/last, and within and has nested no deeper than
// budgets.LocatorDepth.
func checkTarget(op, path string, tg Target) error {
	return checkTargetAt(op, path, tg, 0)
}

func checkTargetAt(op, path string, tg Target, depth int) error {
	if depth > budgets.LocatorDepth {
		return Invalid(op, path, "locators nested deeper than %d (within/has)", budgets.LocatorDepth)
	}
	kinds := tg.kinds()
	switch {
	case len(kinds) == 0:
		return Invalid(op, path, "expected one of %s", strings.Join(LocatorKinds, ", "))
	case len(kinds) > 1:
		return Invalid(op, path, "give one of %s, not %s and %s", strings.Join(LocatorKinds, ", "), kinds[0], kinds[1])
	}
	if tg.Ref != "" {
		if len(tg.Ref) > budgets.TargetRefBytes || tg.Ref[0] != 'e' {
			return Invalid(op, path+".ref", "expected an outline ref like \"e12\"")
		}
		if !tg.IsZero() && (tg.Name != nil || tg.Exact != nil || tg.Within != nil || tg.HasText != nil || tg.Has != nil || tg.Picks()) {
			return Invalid(op, path, "a ref names one element: give nothing else with it")
		}
		return nil
	}
	if tg.Name != nil && tg.Role == "" {
		return Invalid(op, path+".name", "name goes with role")
	}
	if tg.Role != "" && len(tg.Role) > budgets.TargetRoleBytes {
		return Invalid(op, path+".role", "role longer than %d bytes", budgets.TargetRoleBytes)
	}
	if tg.TestID != "" && utf8.RuneCountInString(tg.TestID) > budgets.TargetNameChars {
		return Invalid(op, path+".testId", "longer than %d characters", budgets.TargetNameChars)
	}
	for _, m := range []struct {
		field string
		m     *TextMatch
	}{{"name", tg.Name}, {"text", tg.Text}, {"label", tg.Label}, {"placeholder", tg.Placeholder},
		{"altText", tg.AltText}, {"title", tg.Title}, {"hasText", tg.HasText}} {
		if err := checkMatch(op, path+"."+m.field, m.m); err != nil {
			return err
		}
	}
	picks := 0
	for _, b := range []bool{tg.Nth != nil, tg.First, tg.Last} {
		if b {
			picks++
		}
	}
	if picks > 1 {
		return Invalid(op, path, "give one of nth, first and last")
	}
	if tg.Nth != nil && (*tg.Nth < -budgets.LocatorMatches || *tg.Nth >= budgets.LocatorMatches) {
		return Invalid(op, path+".nth", "expected an index from %d to %d (negative counts from the end)", -budgets.LocatorMatches, budgets.LocatorMatches-1)
	}
	if tg.Within != nil {
		if err := checkTargetAt(op, path+".within", *tg.Within, depth+1); err != nil {
			return err
		}
	}
	if tg.Has != nil {
		if err := checkTargetAt(op, path+".has", *tg.Has, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// checkMatch checks one TextMatch: bounded, and a regex that compiles both as Go RE2 and,
// as far as a syntax check can tell, as a JavaScript RegExp (flags "" or "i").
func checkMatch(op, path string, m *TextMatch) error {
	if m == nil {
		return nil
	}
	if m.Regex == "" {
		if m.Flags != "" {
			return Invalid(op, path+".flags", "flags go with regex")
		}
		if utf8.RuneCountInString(m.String) > budgets.TargetNameChars {
			return Invalid(op, path, "longer than %d characters", budgets.TargetNameChars)
		}
		return nil
	}
	if utf8.RuneCountInString(m.Regex) > budgets.TargetNameChars {
		return Invalid(op, path+".regex", "longer than %d characters", budgets.TargetNameChars)
	}
	if m.Flags != "" && m.Flags != "i" {
		return Invalid(op, path+".flags", "expected \"i\" or nothing")
	}
	if _, err := regexp.Compile(m.Regex); err != nil {
		return Invalid(op, path+".regex", "not a regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	// Go-only syntax a JavaScript RegExp would read differently or refuse.
	for _, bad := range []string{"(?P<", "(?i)", "(?s)", "(?m)", "(?U)", `\z`, `\A`, "[[:"} {
		if strings.Contains(m.Regex, bad) {
			return Invalid(op, path+".regex", "%s is RE2-only syntax; use the common subset of RE2 and JavaScript (flags \"i\" for case)", strconv.Quote(bad))
		}
	}
	return nil
}

// validKey checks press's key: one printable character or a named key, after any modifiers
// joined with "+" ("Control+A", "Shift+Tab", "Control+Shift+ArrowLeft", "Control++").
func validKey(k string) bool {
	mods, key := SplitKey(k)
	for _, m := range mods {
		if !isModifier(m) {
			return false
		}
	}
	if utf8.RuneCountInString(key) == 1 {
		r, _ := utf8.DecodeRuneInString(key)
		return r >= ' ' && r != 0x7f
	}
	for _, n := range NamedKeys {
		if key == n {
			return true
		}
	}
	return isModifier(key) // a modifier pressed alone
}

// SplitKey splits press's key into its modifiers and the key: "Control+A" → [Control], "A";
// "+" and "Shift++" keep "+" as the key.
func SplitKey(k string) (mods []string, key string) {
	if k == "+" || !strings.Contains(k, "+") {
		return nil, k
	}
	if strings.HasSuffix(k, "++") {
		return strings.Split(strings.TrimSuffix(k, "++"), "+"), "+"
	}
	parts := strings.Split(k, "+")
	return parts[:len(parts)-1], parts[len(parts)-1]
}

func isModifier(m string) bool {
	for _, x := range Modifiers {
		if m == x {
			return true
		}
	}
	return false
}

// checkActOptions checks the pointer options, dragTo's target and the flags against the
// action they go with.
func checkActOptions(r Act) error {
	pointer := slices.Contains(PointerActions, r.Action)
	switch {
	case r.Button != "" && r.Action != ActClick && r.Action != ActDblclick:
		return Invalid(OpAct, "request.button", "button goes with click and dblclick, not %q", r.Action)
	case r.Button != "" && !slices.Contains(MouseButtons, r.Button):
		return Invalid(OpAct, "request.button", "expected one of %s", strings.Join(MouseButtons, ", "))
	case r.ClickCount != 0 && r.Action != ActClick:
		return Invalid(OpAct, "request.clickCount", "clickCount goes with click, not %q", r.Action)
	case r.ClickCount < 0 || r.ClickCount > 3:
		return Invalid(OpAct, "request.clickCount", "expected 1–3")
	case r.Modifiers != nil && !pointer:
		return Invalid(OpAct, "request.modifiers", "modifiers go with %s, not %q (press names them in its key)", strings.Join(PointerActions, ", "), r.Action)
	case len(r.Modifiers) > len(Modifiers):
		return Invalid(OpAct, "request.modifiers", "at most %d modifiers", len(Modifiers))
	case r.Position != nil && !pointer:
		return Invalid(OpAct, "request.position", "position goes with %s, not %q", strings.Join(PointerActions, ", "), r.Action)
	case r.Position != nil && (r.Position.X < 0 || r.Position.Y < 0):
		return Invalid(OpAct, "request.position", "expected x and y of at least 0, from the element's top-left corner")
	case r.Trial && r.Action == ActScrollIntoView:
		return Invalid(OpAct, "request.trial", "scrollIntoView has nothing to try")
	}
	for i, m := range r.Modifiers {
		if !isModifier(m) {
			return Invalid(OpAct, "request.modifiers["+strconv.Itoa(i)+"]", "expected one of %s", strings.Join(Modifiers, ", "))
		}
	}
	if r.To != nil {
		if err := checkTarget(OpAct, "request.to", *r.To); err != nil {
			return err
		}
	}
	return nil
}
