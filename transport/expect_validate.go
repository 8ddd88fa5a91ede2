package transport

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Validate checks an assertion: its kind, which of value, values, name, storage, target and
// cell go with it, each one's shape, and its wait.
func (r Assert) Validate() error {
	r.Normalize()
	if err := checkTab(OpAssert, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if !slices.Contains(AssertKinds, r.Kind) {
		return Invalid(OpAssert, "request.kind", "expected one of %s", strings.Join(AssertKinds, ", "))
	}
	if err := checkAssertFields(r); err != nil {
		return err
	}
	if err := checkAssertValue(r); err != nil {
		return err
	}
	if err := checkAssertScope(r); err != nil {
		return err
	}
	if ceiling := budgets.Expect().Ceiling.Milliseconds(); r.TimeoutMs < 0 || r.TimeoutMs > int(ceiling) {
		return NewError(OpAssert, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "timeoutMs must be between 0 and %d", ceiling).WithPath("request.timeoutMs")
	}
	switch r.Wait {
	case "", WaitBounded, WaitNone:
	default:
		return Invalid(OpAssert, "request.wait", "expected \"bounded\" or \"none\"")
	}
	return nil
}

// checkAssertFields refuses a field the kind does not take, and asks for one it needs.
func checkAssertFields(r Assert) error {
	k := r.Kind
	state := slices.Contains(StateKinds, k)
	switch {
	case r.ValueMatch != nil && (state || k == AssertValues):
		return Invalid(OpAssert, "request.value", "kind %s takes no value", k)
	case r.ValueMatch != nil && k == AssertText && r.Values != nil:
		return Invalid(OpAssert, "request.values", "give text a value (one element's text) or values (every match's), not both")
	case r.ValueMatch == nil && needsValue(&r):
		return Invalid(OpAssert, "request.value", "kind %s needs a value", k)
	case r.Values != nil && k != AssertText && k != AssertValues:
		return Invalid(OpAssert, "request.values", "values goes with kinds text and values, not %q", k)
	case r.Values == nil && k == AssertValues:
		return Invalid(OpAssert, "request.values", "kind values needs values (the selected options' values, in order; [] for none)")
	case len(r.Values) > budgets.AssertListItems:
		return Invalid(OpAssert, "request.values", "more than %d items", budgets.AssertListItems)
	case r.Name != "" && k != AssertAttribute:
		return Invalid(OpAssert, "request.name", "name goes with kind attribute, not %q", k)
	case k == AssertAttribute && strings.TrimSpace(r.Name) == "":
		return Invalid(OpAssert, "request.name", "kind attribute needs the attribute's name")
	case utf8.RuneCountInString(r.Name) > budgets.AssertNameChars:
		return Invalid(OpAssert, "request.name", "longer than %d characters", budgets.AssertNameChars)
	case r.IgnoreCase && k != AssertText && k != AssertAttribute && k != AssertURL:
		return Invalid(OpAssert, "request.ignoreCase", "ignoreCase goes with kinds text, attribute and url, not %q", k)
	case r.UseInnerText && k != AssertText:
		return Invalid(OpAssert, "request.useInnerText", "useInnerText goes with kind text, not %q", k)
	case r.Storage != nil && k != AssertStorage:
		return Invalid(OpAssert, "request.storage", "storage goes with kind storage, not %q", k)
	case r.JSONContains != nil && k != AssertStorage:
		return Invalid(OpAssert, "request.jsonContains", "jsonContains goes with kind storage, not %q", k)
	case k == AssertStorage:
		return checkStorage(r)
	}
	return nil
}

// checkStorage checks a storage assertion: the area and key, and at most one of value and
// jsonContains.
func checkStorage(r Assert) error {
	switch {
	case r.Storage == nil:
		return Invalid(OpAssert, "request.storage", "kind storage needs storage: {\"area\": \"local\" or \"session\", \"key\": …}")
	case r.Storage.Area != StorageLocal && r.Storage.Area != StorageSession:
		return Invalid(OpAssert, "request.storage.area", "expected \"local\" or \"session\"")
	case r.Storage.Key == "":
		return Invalid(OpAssert, "request.storage.key", "expected a non-empty key")
	case utf8.RuneCountInString(r.Storage.Key) > budgets.StorageKeyChars:
		return Invalid(OpAssert, "request.storage.key", "longer than %d characters", budgets.StorageKeyChars)
	case r.JSONContains != nil && r.ValueMatch != nil:
		return Invalid(OpAssert, "request.jsonContains", "give value (the stored string) or jsonContains (JSON it contains), not both")
	case len(r.JSONContains) > budgets.AssertJSONBytes:
		return Invalid(OpAssert, "request.jsonContains", "longer than %d bytes of JSON", budgets.AssertJSONBytes)
	case r.JSONContains != nil && !json.Valid(r.JSONContains):
		return Invalid(OpAssert, "request.jsonContains", "expected a JSON value")
	}
	return nil
}

// checkAssertValue checks the expected value and values: a regex only for the kinds that
// compare text, and each kind's own form.
func checkAssertValue(r Assert) error {
	for i := range r.Values {
		if err := checkValueMatch(r, "request.values["+strconv.Itoa(i)+"]", &r.Values[i], true); err != nil {
			return err
		}
	}
	if r.ValueMatch == nil {
		return nil
	}
	if err := checkValueMatch(r, "request.value", r.ValueMatch, takesRegex(r.Kind)); err != nil {
		return err
	}
	if r.ValueMatch.IsRegex() {
		return nil
	}
	switch r.Kind {
	case AssertStatus:
		if n, err := strconv.Atoi(r.Value); err != nil || n < 100 || n > 599 || strconv.Itoa(n) != r.Value {
			return Invalid(OpAssert, "request.value", "expected an HTTP status 100–599, such as \"200\"")
		}
	case AssertPageClass:
		if !slices.Contains(PageClasses, r.Value) {
			return Invalid(OpAssert, "request.value", "expected one of %s", strings.Join(PageClasses, ", "))
		}
	case AssertChecked:
		if r.Value != "true" && r.Value != "false" {
			return Invalid(OpAssert, "request.value", "expected \"true\" or \"false\"")
		}
	case AssertCount:
		if n, err := strconv.Atoi(r.Value); err != nil || n < 0 || n > budgets.AssertCountMax || strconv.Itoa(n) != r.Value {
			return Invalid(OpAssert, "request.value", "expected a count 0–%d in decimal, such as \"3\"", budgets.AssertCountMax)
		}
	case AssertClassContains:
		if strings.TrimSpace(r.Value) == "" {
			return Invalid(OpAssert, "request.value", "expected one or more class names separated by spaces")
		}
	case AssertURL, AssertOrigin, AssertTitleContains, AssertTextContains:
		// An empty value is a title, a text, a field, an attribute, a class or a stored value
		// that is empty; these always name something.
		if r.Value == "" {
			return Invalid(OpAssert, "request.value", "expected a non-empty string")
		}
	}
	return nil
}

// checkValueMatch checks one expected value: bounded, a regex only where regex says, and a
// regex that compiles both as Go RE2 and (as far as a syntax check can tell) as JavaScript.
func checkValueMatch(r Assert, path string, m *ValueMatch, regex bool) error {
	if !m.IsRegex() {
		if m.Flags != "" {
			return Invalid(OpAssert, path+".flags", "flags go with regex")
		}
		if utf8.RuneCountInString(m.String) > budgets.AssertValueChars {
			return Invalid(OpAssert, path, "value longer than %d characters", budgets.AssertValueChars)
		}
		return nil
	}
	if !regex {
		return Invalid(OpAssert, path, "kind %s compares a plain string; a regex goes with kinds %s", r.Kind, strings.Join(textKinds, ", "))
	}
	if utf8.RuneCountInString(m.Regex) > budgets.AssertValueChars {
		return Invalid(OpAssert, path+".regex", "longer than %d characters", budgets.AssertValueChars)
	}
	if !validFlags(m.Flags) {
		return Invalid(OpAssert, path+".flags", "expected any of the flags i, m, s and u, each once")
	}
	if _, err := m.Compile(false); err != nil {
		return Invalid(OpAssert, path+".regex", "not a regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	for _, bad := range re2Only {
		if strings.Contains(m.Regex, bad) {
			return Invalid(OpAssert, path+".regex", "%s is RE2-only syntax; use the common subset of RE2 and JavaScript (and flags)", strconv.Quote(bad))
		}
	}
	return nil
}

// re2Only is Go-only syntax a JavaScript RegExp would read differently or refuse.
var re2Only = []string{"(?P<", "(?i)", "(?s)", "(?m)", "(?U)", `\z`, `\A`, "[[:"}

// validFlags: JavaScript flags that change matching the same way in RE2 (i, m, s) or not at
// all there (u), each at most once.
func validFlags(f string) bool {
	if strings.Trim(f, "imsu") != "" { // only those letters
		return false
	}
	for _, c := range f {
		if strings.Count(f, string(c)) > 1 {
			return false
		}
	}
	return true
}

// elementKinds read an element: they need a target.
var elementKinds = []string{AssertValue, AssertChecked, AssertCount, AssertVisible, AssertHidden, AssertEnabled,
	AssertDisabled, AssertEditable, AssertFocused, AssertAttribute, AssertClass, AssertClassContains, AssertText, AssertValues}

// checkAssertScope checks what an assertion looks at: which kinds take a target or a cell,
// which need one, and the target's and the cell's own shape.
func checkAssertScope(r Assert) error {
	if r.Cell != nil {
		if r.Kind != AssertTextContains {
			return Invalid(OpAssert, "request.cell", "cell goes with kind textContains, not %q", r.Kind)
		}
		if r.Target != nil {
			return Invalid(OpAssert, "request.cell", "give a target or a cell, not both")
		}
		if r.Cell.Table != nil {
			if err := checkTarget(OpAssert, "request.cell.table", *r.Cell.Table); err != nil {
				return err
			}
		}
		for _, f := range []struct{ path, v string }{{"request.cell.row", r.Cell.Row}, {"request.cell.column", r.Cell.Column}} {
			if strings.TrimSpace(f.v) == "" {
				return Invalid(OpAssert, f.path, "expected the text of a cell in the row (row) or of a column header (column)")
			}
			if utf8.RuneCountInString(f.v) > budgets.AssertCellKeyChars {
				return Invalid(OpAssert, f.path, "longer than %d characters", budgets.AssertCellKeyChars)
			}
		}
		return nil
	}
	element := slices.Contains(elementKinds, r.Kind)
	switch {
	case r.Target == nil && element:
		return Invalid(OpAssert, "request.target", "kind %s needs a target", r.Kind)
	case r.Target == nil:
		return nil
	case !element && r.Kind != AssertTextContains:
		return Invalid(OpAssert, "request.target", "target goes with kinds textContains, %s, not %q", strings.Join(elementKinds, ", "), r.Kind)
	case r.Kind == AssertCount && r.Target.Ref != "":
		return Invalid(OpAssert, "request.target", "count counts the elements a locator matches; a ref names one element")
	case r.Kind == AssertText && r.Values != nil && r.Target.Ref != "":
		return Invalid(OpAssert, "request.target", "text's values compare every match of a locator; a ref names one element")
	}
	return checkTarget(OpAssert, "request.target", *r.Target)
}
