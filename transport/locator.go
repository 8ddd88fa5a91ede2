package transport

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// Locators (issue 25): one Target shape names an element the way a Playwright user does,
// with no CSS, XPath or script: by outline ref; by role with an optional accessible name;
// by its text, label, placeholder, alt text, title or test id; refined by a container
// (within), what it holds (hasText, has) and, when several match, which one (nth, first,
// last). Every text comparison is a TextMatch.

// Target names one element (or, for a count assertion, the elements it counts). Exactly
// one of ref, role, text, label, placeholder, altText, title and testId says how it is
// found; the rest refine a look by anything but ref.
type Target struct {
	Ref string `json:"ref,omitempty"` // an outline ref ("e12"): nothing else goes with it

	// Role is an ARIA role (the outline's names: button, link, textbox, checkbox, …); Name,
	// when given, must match its accessible name.
	Role string     `json:"role,omitempty"`
	Name *TextMatch `json:"name,omitempty"`

	Text        *TextMatch `json:"text,omitempty"`        // the element's own visible text (the innermost element holding it)
	Label       *TextMatch `json:"label,omitempty"`       // a form control by its <label>, aria-labelledby or aria-label
	Placeholder *TextMatch `json:"placeholder,omitempty"` // an input or textarea by its placeholder
	AltText     *TextMatch `json:"altText,omitempty"`     // an img, area or input[type=image] by its alt text
	Title       *TextMatch `json:"title,omitempty"`       // an element by its title attribute
	TestID      string     `json:"testId,omitempty"`      // the test-id attribute (data-testid unless the run says another), compared exactly

	// Exact makes every string TextMatch of this target (not its within or has) compare the
	// whole text, case-sensitively, after white space is folded. Default: a case-insensitive
	// substring, as Playwright's getBy* do.
	Exact *bool `json:"exact,omitempty"`

	Within  *Target    `json:"within,omitempty"`  // only elements inside an element this locator finds
	HasText *TextMatch `json:"hasText,omitempty"` // only elements whose text contains this (anywhere in their subtree)
	Has     *Target    `json:"has,omitempty"`     // only elements holding an element this locator finds

	// Which of several matches, in document order: Nth is 0-based (-1 is the last). Without
	// one of these, a target matching more than one element is refused element_ambiguous
	// for an action (Playwright's strictness).
	Nth   *int `json:"nth,omitempty"`
	First bool `json:"first,omitempty"`
	Last  bool `json:"last,omitempty"`
}

// Locator kinds: the field of Target that says how the element is found.
const (
	LocateRef         = "ref"
	LocateRole        = "role"
	LocateText        = "text"
	LocateLabel       = "label"
	LocatePlaceholder = "placeholder"
	LocateAltText     = "altText"
	LocateTitle       = "title"
	LocateTestID      = "testId"
)

// LocatorKinds lists the kinds, in documentation order.
var LocatorKinds = []string{LocateRef, LocateRole, LocateText, LocateLabel, LocatePlaceholder, LocateAltText, LocateTitle, LocateTestID}

// Kind is the target's locator kind ("" when none is set; more than one is refused by
// Validate, and Kind then returns the first).
func (tg Target) Kind() string {
	for _, k := range tg.kinds() {
		return k
	}
	return ""
}

func (tg Target) kinds() []string {
	var ks []string
	if tg.Ref != "" {
		ks = append(ks, LocateRef)
	}
	if tg.Role != "" {
		ks = append(ks, LocateRole)
	}
	for _, f := range []struct {
		kind string
		set  bool
	}{{LocateText, tg.Text != nil}, {LocateLabel, tg.Label != nil}, {LocatePlaceholder, tg.Placeholder != nil},
		{LocateAltText, tg.AltText != nil}, {LocateTitle, tg.Title != nil}, {LocateTestID, tg.TestID != ""}} {
		if f.set {
			ks = append(ks, f.kind)
		}
	}
	return ks
}

// IsZero reports a target with nothing set (press on the page, which has none).
func (tg Target) IsZero() bool {
	return tg.Kind() == "" && tg.Name == nil && tg.Exact == nil && tg.Within == nil && tg.HasText == nil &&
		tg.Has == nil && tg.Nth == nil && !tg.First && !tg.Last
}

// Picks reports whether the target says which of several matches it means.
func (tg Target) Picks() bool { return tg.Nth != nil || tg.First || tg.Last }

// IsExact reports whether the target's string matches compare exactly.
func (tg Target) IsExact() bool { return tg.Exact != nil && *tg.Exact }

// TextMatch is text a locator compares with: a string, or {"regex": "…", "flags": "i"?}.
// A string matches as a case-insensitive substring of the element's text with white space
// folded, or, under the target's exact, the whole folded text case-sensitively. A regex is
// searched for in the folded text; it must be valid both as Go RE2 (role names are matched
// in Go) and as a JavaScript RegExp (texts are matched in the page): the common syntax of
// character classes, groups, alternation, anchors and quantifiers is.
type TextMatch struct {
	String string // a string match (when Regex is "")
	Regex  string // a regular expression
	Flags  string // with Regex: "" or "i" (case-insensitive)
}

// Match returns a string TextMatch.
func Match(s string) *TextMatch { return &TextMatch{String: s} }

// MatchRegex returns a regex TextMatch.
func MatchRegex(re, flags string) *TextMatch { return &TextMatch{Regex: re, Flags: flags} }

// UnmarshalStrictJSON accepts exactly `"text"` or `{"regex": "…", "flags": "i"?}`.
func (m *TextMatch) UnmarshalStrictJSON(raw []byte, path string) error {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return &strictjson.Error{Path: path, Expected: "string", Message: "expected a string or {\"regex\": …}"}
		}
		*m = TextMatch{String: s}
		return nil
	}
	var re struct {
		Regex string `json:"regex" required:"true"`
		Flags string `json:"flags,omitempty"`
	}
	if err := strictjson.DecodeAt(raw, &re, path); err != nil {
		return err
	}
	*m = TextMatch{Regex: re.Regex, Flags: re.Flags}
	return nil
}

// UnmarshalJSON mirrors UnmarshalStrictJSON for callers that already checked the bytes.
func (m *TextMatch) UnmarshalJSON(raw []byte) error { return m.UnmarshalStrictJSON(raw, "") }

// MarshalJSON writes the form it was given.
func (m TextMatch) MarshalJSON() ([]byte, error) {
	if m.Regex != "" {
		if m.Flags != "" {
			return json.Marshal(map[string]string{"regex": m.Regex, "flags": m.Flags})
		}
		return json.Marshal(map[string]string{"regex": m.Regex})
	}
	return json.Marshal(m.String)
}

// IsRegex reports a regex match.
func (m *TextMatch) IsRegex() bool { return m != nil && m.Regex != "" }

// Describe is the match as a message quotes it: "Save" or /^Save/i.
func (m *TextMatch) Describe() string {
	if m == nil {
		return `""`
	}
	if m.Regex != "" {
		return "/" + m.Regex + "/" + m.Flags
	}
	return quoteText(m.String)
}

func quoteText(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Matcher compiles the match for text that FoldSpace already folded; exact applies to a
// string match only. A regex is compiled as Go RE2 (Validate refused any that is not).
func (m *TextMatch) Matcher(exact bool) func(string) bool {
	switch {
	case m == nil:
		return func(string) bool { return true }
	case m.Regex != "":
		src := m.Regex
		if strings.Contains(m.Flags, "i") {
			src = "(?i)" + src
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return func(string) bool { return false }
		}
		return re.MatchString
	case exact:
		want := FoldSpace(m.String)
		return func(got string) bool { return got == want }
	default:
		want := strings.ToLower(FoldSpace(m.String))
		return func(got string) bool { return strings.Contains(strings.ToLower(got), want) }
	}
}

// FoldSpace trims s, drops zero-width characters (ZeroWidth) and folds each run of white
// space to one space, as Playwright's normalizeWhiteSpace does before any text comparison.
// Names in the outline are folded the same way, so a name read there matches as written.
func FoldSpace(s string) string {
	if strings.ContainsFunc(s, ZeroWidth) {
		s = strings.Map(dropZeroWidth, s)
	}
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// ZeroWidth reports an invisible character that takes no room: zero-width space,
// non-joiner and joiner, word joiner and the byte-order mark. Pages put them in text to
// allow line breaks (Swagger UI's paths: "/pet\u200b/{petId}"); Playwright strips U+200B
// from its snapshot, and the outline and locators strip all of these.
func ZeroWidth(r rune) bool {
	switch r {
	case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

func dropZeroWidth(r rune) rune {
	if ZeroWidth(r) {
		return -1
	}
	return r
}

// Describe is the target as reports and messages show it: `ref e12`, `button ~"Save"` (a
// substring; `button "Save"` when exact; `button /^Save/i`), `testId "cart"`, then its
// refinements: ` within (list ~"Inbox") hasText ~"alice" has (checkbox) nth 2`.
func (tg Target) Describe() string {
	if tg.Ref != "" {
		return "ref " + tg.Ref
	}
	exact := tg.IsExact()
	match := func(m *TextMatch) string {
		if !m.IsRegex() && !exact {
			return "~" + m.Describe()
		}
		return m.Describe()
	}
	var b strings.Builder
	switch tg.Kind() {
	case LocateRole:
		b.WriteString(tg.Role)
		if tg.Name != nil {
			b.WriteString(" " + match(tg.Name))
		}
	case LocateText:
		b.WriteString("text " + match(tg.Text))
	case LocateLabel:
		b.WriteString("label " + match(tg.Label))
	case LocatePlaceholder:
		b.WriteString("placeholder " + match(tg.Placeholder))
	case LocateAltText:
		b.WriteString("altText " + match(tg.AltText))
	case LocateTitle:
		b.WriteString("title " + match(tg.Title))
	case LocateTestID:
		b.WriteString("testId " + quoteText(tg.TestID))
	}
	if tg.Within != nil {
		b.WriteString(" within (" + tg.Within.Describe() + ")")
	}
	if tg.HasText != nil {
		b.WriteString(" hasText " + tg.HasText.describeLoose())
	}
	if tg.Has != nil {
		b.WriteString(" has (" + tg.Has.Describe() + ")")
	}
	switch {
	case tg.Nth != nil:
		b.WriteString(" nth " + strconv.Itoa(*tg.Nth))
	case tg.First:
		b.WriteString(" first")
	case tg.Last:
		b.WriteString(" last")
	}
	return b.String()
}

// describeLoose is a hasText match, always a substring unless a regex.
func (m *TextMatch) describeLoose() string {
	if m.IsRegex() {
		return m.Describe()
	}
	return "~" + m.Describe()
}
