package transport

import (
	"regexp"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Playwright's web-first assertions as assert kinds (issue 26): element states, attribute,
// class, whole text, a multi-select's values and web storage, each with not, wait and
// timeoutMs like every kind. The expected value of kinds that compare text may be a regex.

// Assertion kinds that look at one element's state (target required, no value).
const (
	AssertVisible  = "visible"  // toBeVisible: a non-empty box, not visibility:hidden
	AssertHidden   = "hidden"   // toBeHidden: not visible, or no element matches
	AssertEnabled  = "enabled"  // toBeEnabled
	AssertDisabled = "disabled" // toBeDisabled: native, fieldset or aria-disabled
	AssertEditable = "editable" // toBeEditable: enabled and not read-only
	AssertFocused  = "focused"  // toBeFocused: the document's active element
)

// Assertion kinds that compare what an element holds (target required).
const (
	AssertAttribute     = "attribute"     // toHaveAttribute: name; value absent → present
	AssertClass         = "class"         // toHaveClass: the whole class attribute
	AssertClassContains = "classContains" // toContainClass: each class named is present
	AssertText          = "text"          // toHaveText: the element's whole text (value), or every match's (values)
	AssertValues        = "values"        // toHaveValues: a multi-select's selected values, in order
	AssertStorage       = "storage"       // the page's own localStorage or sessionStorage (no target)
)

// StateKinds are the kinds that take a target and no value.
var StateKinds = []string{AssertVisible, AssertHidden, AssertEnabled, AssertDisabled, AssertEditable, AssertFocused}

// Storage areas.
const (
	StorageLocal   = "local"
	StorageSession = "session"
)

// StorageKey names one key of the page's web storage.
type StorageKey struct {
	Area string `json:"area" required:"true"` // "local" | "session"
	Key  string `json:"key" required:"true"`
}

// ValueMatch is an assertion's expected value: a string, or {"regex": "…", "flags": "…"}
// for the kinds that compare text (text, url, title, attribute, class, value). A regex's
// flags are any of i, m, s and u (JavaScript's; u changes nothing RE2 reads differently).
// A regex is searched for (a match anywhere), as Playwright's expect does; anchor it with
// ^ and $ to compare the whole text.
type ValueMatch TextMatch

// UnmarshalStrictJSON accepts exactly `"text"` or `{"regex": "…", "flags": "…"?}`.
func (m *ValueMatch) UnmarshalStrictJSON(raw []byte, path string) error {
	return (*TextMatch)(m).UnmarshalStrictJSON(raw, path)
}

// UnmarshalJSON mirrors UnmarshalStrictJSON.
func (m *ValueMatch) UnmarshalJSON(raw []byte) error { return (*TextMatch)(m).UnmarshalJSON(raw) }

// MarshalJSON writes the form it was given.
func (m ValueMatch) MarshalJSON() ([]byte, error) { return TextMatch(m).MarshalJSON() }

// IsRegex reports a regex.
func (m *ValueMatch) IsRegex() bool { return m != nil && m.Regex != "" }

// Describe is the match as a failure's expected shows it: "Save" or /^Save$/i.
func (m *ValueMatch) Describe() string { return (*TextMatch)(m).Describe() }

// Is is a string ValueMatch.
func Is(s string) *ValueMatch { return &ValueMatch{String: s} }

// Like is a regex ValueMatch.
func Like(re, flags string) *ValueMatch { return &ValueMatch{Regex: re, Flags: flags} }

// Compile compiles a regex ValueMatch as Go RE2 (Validate refused any that does not
// compile); ignoreCase adds the i flag, as Playwright's ignoreCase overrides a regex's.
func (m *ValueMatch) Compile(ignoreCase bool) (*regexp.Regexp, error) {
	flags := ""
	for _, f := range "ims" {
		if strings.ContainsRune(m.Flags, f) || f == 'i' && ignoreCase {
			flags += string(f)
		}
	}
	src := m.Regex
	if flags != "" {
		src = "(?" + flags + ")" + src
	}
	return regexp.Compile(src)
}

// textKinds compare text and so take a regex value.
var textKinds = []string{AssertText, AssertURL, AssertTitle, AssertAttribute, AssertClass, AssertValue}

// takesRegex reports a kind whose value may be a regex.
func takesRegex(kind string) bool {
	for _, k := range textKinds {
		if k == kind {
			return true
		}
	}
	return false
}

// needsValue reports a kind whose value is required (an empty string is still one).
func needsValue(r *Assert) bool {
	switch r.Kind {
	case AssertVisible, AssertHidden, AssertEnabled, AssertDisabled, AssertEditable, AssertFocused,
		AssertAttribute, AssertValues, AssertStorage:
		return false
	case AssertText:
		return r.Values == nil
	}
	return true
}

// Normalize makes the two forms of the expected value agree: ValueMatch is set when a value
// was given (a decoded request's "value", or a Go caller's Value for a kind that needs one),
// and Value holds its string form ("" for a regex). Validate, the worker and the scenario
// loader call it, and transport.Validate before a request is sent, so a Go caller may set
// either field.
func (r *Assert) Normalize() {
	switch {
	case r.ValueMatch != nil:
		if !r.ValueMatch.IsRegex() {
			r.Value = r.ValueMatch.String
		}
	case r.Value != "":
		// An empty Value is no value: a Go caller asserting an empty title or field gives
		// ValueMatch Is(""), as a request's "value": "" decodes.
		r.ValueMatch = Is(r.Value)
	}
}

// ValueList is an assertion's list of expected values. Absent and empty differ (an empty
// list expects no match at all), so only a nil list is left out of the wire form.
type ValueList []ValueMatch

// IsZero makes omitzero leave out a nil list only.
func (l ValueList) IsZero() bool { return l == nil }

// ForWire is the request as it goes on the wire: the expected value normalised, so a Go
// caller's Value reaches the worker on a path that never called Validate (wire.Conn.Call
// sends every request through it).
func (r Assert) ForWire() Operation {
	r.Normalize()
	return r
}

// ExpectedWait is how long a bounded assert waits: its timeoutMs, else the expect budget's
// default.
func (r Assert) ExpectedWait() time.Duration {
	if r.TimeoutMs > 0 {
		return time.Duration(r.TimeoutMs) * time.Millisecond
	}
	return budgets.Expect().Default
}

// assertDeadline: the assertion's own wait plus the margin.
func assertDeadline(op Operation, _ time.Duration) time.Duration {
	switch r := op.(type) {
	case *Assert:
		return r.ExpectedWait() + budgets.ClientMargin
	case Assert:
		return r.ExpectedWait() + budgets.ClientMargin
	}
	return budgets.Expect().Default + budgets.ClientMargin
}
