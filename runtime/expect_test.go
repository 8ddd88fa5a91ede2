package runtime_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Playwright's web-first assertions (transport/expect.go) on the fixture's /expect page:
// each kind passes, passes negated, and fails with what it expected, what it received and
// its call log.

type expectSession struct {
	t    *testing.T
	rt   transport.Caller
	base string
}

func openExpect(t *testing.T) *expectSession {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/expect"}); err != nil {
		t.Fatal(err)
	}
	return &expectSession{t: t, rt: rt, base: site.URL}
}

func (s *expectSession) passes(a transport.Assert) {
	s.t.Helper()
	if _, err := transport.Dispatch(bg, s.rt, a); err != nil {
		s.t.Fatalf("assert %s %+v: %v", a.Kind, a, err)
	}
}

// fails runs a and wants code; it returns the failure.
func (s *expectSession) fails(a transport.Assert, code transport.Code) *transport.OperationError {
	s.t.Helper()
	_, err := transport.Dispatch(bg, s.rt, a)
	oe := transport.AsOperationError("", err)
	if err == nil || oe.Code != code {
		s.t.Fatalf("assert %s %+v: %v, want %s", a.Kind, a, err, code)
	}
	return oe
}

// failsWith runs a (one read unless it says otherwise) and wants assertion_failed with
// this expected and received, and a call log that starts with head and has a line holding
// look.
func (s *expectSession) failsWith(a transport.Assert, expected, received, head, look string) *transport.OperationError {
	s.t.Helper()
	oe := s.fails(a, transport.CodeAssertionFailed)
	if oe.Expected != expected || oe.Received != received {
		s.t.Errorf("assert %s: expected %q received %q, want %q and %q (message %q)", a.Kind, oe.Expected, oe.Received, expected, received, oe.Message)
	}
	if len(oe.CallLog) < 2 || oe.CallLog[0] != head || !slices.ContainsFunc(oe.CallLog[1:], func(l string) bool { return strings.Contains(l, look) }) {
		s.t.Errorf("assert %s: call log %q, want %q then a look with %q", a.Kind, oe.CallLog, head, look)
	}
	return oe
}

func testID(id string) *transport.Target { return &transport.Target{TestID: id} }

func labelled(l string) *transport.Target { return &transport.Target{Label: transport.Match(l)} }

const once = transport.WaitMode(transport.WaitNone)

// TestExpectVisibleHidden: visible needs a box and visibility; display:none, visibility:hidden
// and no element at all are hidden; a failure folds its equal looks in the call log.
func TestExpectVisibleHidden(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	s.passes(transport.Assert{Kind: transport.AssertVisible, Target: testID("shown")})
	s.passes(transport.Assert{Kind: transport.AssertHidden, Target: testID("none")})
	s.passes(transport.Assert{Kind: transport.AssertHidden, Target: testID("ghost")})
	s.passes(transport.Assert{Kind: transport.AssertHidden, Target: testID("no-such-element"), Wait: once})
	s.passes(transport.Assert{Kind: transport.AssertVisible, Target: testID("none"), Not: true})
	s.passes(transport.Assert{Kind: transport.AssertHidden, Target: testID("shown"), Not: true})

	oe := s.failsWith(transport.Assert{Kind: transport.AssertVisible, Target: testID("none"), TimeoutMs: 400},
		"visible", "hidden (display:none)", `waiting for testId "none" to be visible`, "hidden (display:none)")
	if len(oe.CallLog) != 2 {
		t.Errorf("equal looks are not folded into one line: %q", oe.CallLog)
	}
	if !strings.Contains(oe.Message, "within the assertion's timeoutMs (400ms)") {
		t.Errorf("message %q", oe.Message)
	}
	s.failsWith(transport.Assert{Kind: transport.AssertVisible, Target: testID("ghost"), Wait: once},
		"visible", "hidden (visibility:hidden)", `waiting for testId "ghost" to be visible`, "hidden (visibility:hidden)")
	s.failsWith(transport.Assert{Kind: transport.AssertVisible, Target: testID("no-such-element"), Wait: once},
		"visible", "hidden (no element)", `waiting for testId "no-such-element" to be visible`, "hidden (no element)")
	s.failsWith(transport.Assert{Kind: transport.AssertVisible, Target: testID("shown"), Not: true, Wait: once},
		"not visible", "visible", `waiting for testId "shown" to not be visible`, "visible")
}

// TestExpectVisibleWaits: an element shown 300 ms after a click is waited for.
func TestExpectVisibleWaits(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	if _, err := transport.Dispatch(bg, s.rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Change later")}}); err != nil {
		t.Fatal(err)
	}
	s.passes(transport.Assert{Kind: transport.AssertVisible, Target: testID("none")})
	s.passes(transport.Assert{Kind: transport.AssertEnabled, Target: &transport.Target{Role: "button", Name: transport.Match("Disabled"), Exact: ptr(true)}})
	s.passes(transport.Assert{Kind: transport.AssertText, ValueMatch: transport.Is("done"), Target: testID("status")})
	s.passes(transport.Assert{Kind: transport.AssertClass, ValueMatch: transport.Is("done ready"), Target: testID("status")})
	s.passes(transport.Assert{Kind: transport.AssertFocused, Target: labelled("Nickname")})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: &transport.StorageKey{Area: transport.StorageSession, Key: "cart"}, ValueMatch: transport.Is("4 items")})
}

// TestExpectEnabledDisabledEditableFocused: native disabled, a disabled fieldset and
// aria-disabled are disabled; a read-only field is not editable; editable of an element
// that cannot be edited is refused at once; focus follows the document's active element.
func TestExpectEnabledDisabledEditableFocused(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	disabled := &transport.Target{Role: "button", Name: transport.Match("Disabled"), Exact: ptr(true)}
	aria := &transport.Target{Role: "button", Name: transport.Match("Aria disabled")}
	later := &transport.Target{Role: "button", Name: transport.Match("Change later")}
	s.passes(transport.Assert{Kind: transport.AssertDisabled, Target: disabled})
	s.passes(transport.Assert{Kind: transport.AssertDisabled, Target: aria})
	s.passes(transport.Assert{Kind: transport.AssertDisabled, Target: labelled("In locked fieldset")})
	s.passes(transport.Assert{Kind: transport.AssertEnabled, Target: later})
	s.passes(transport.Assert{Kind: transport.AssertEnabled, Target: aria, Not: true})
	s.passes(transport.Assert{Kind: transport.AssertDisabled, Target: later, Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertEnabled, Target: aria, Wait: once},
		"enabled", "disabled", `waiting for button named "Aria disabled" to be enabled`, "disabled")
	s.failsWith(transport.Assert{Kind: transport.AssertDisabled, Target: later, Wait: once},
		"disabled", "enabled", `waiting for button named "Change later" to be disabled`, "enabled")

	s.passes(transport.Assert{Kind: transport.AssertEditable, Target: labelled("Nickname")})
	s.passes(transport.Assert{Kind: transport.AssertEditable, Target: labelled("Serial"), Not: true})
	s.passes(transport.Assert{Kind: transport.AssertEditable, Target: labelled("In locked fieldset"), Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertEditable, Target: labelled("Serial"), Wait: once},
		"editable", "read-only", `waiting for label ~"Serial" to be editable`, "read-only")
	oe := s.fails(transport.Assert{Kind: transport.AssertEditable, Target: testID("shown")}, transport.CodeElementNotActionable)
	if !strings.Contains(oe.Message, "editable does not apply") {
		t.Errorf("editable of a paragraph: %q", oe.Message)
	}

	s.passes(transport.Assert{Kind: transport.AssertFocused, Target: labelled("Nickname"), Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertFocused, Target: labelled("Nickname"), Wait: once},
		"focused", "not focused", `waiting for label ~"Nickname" to be focused`, "not focused")
	if _, err := transport.Dispatch(bg, s.rt, transport.Act{Action: transport.ActFocus, Target: *labelled("Nickname")}); err != nil {
		t.Fatal(err)
	}
	s.passes(transport.Assert{Kind: transport.AssertFocused, Target: labelled("Nickname")})
	s.passes(transport.Assert{Kind: transport.AssertFocused, Target: labelled("Serial"), Not: true})

	// Strictness: a locator matching several elements is element_ambiguous for one element's state.
	s.fails(transport.Assert{Kind: transport.AssertVisible, Target: &transport.Target{Role: "button"}}, transport.CodeElementAmbiguous)
}

// TestExpectAttributeAndClass: attribute present, equal (ignoring case), matching a regex;
// class compared whole (white space normalised) or by regex; classContains each name.
func TestExpectAttributeAndClass(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	docs := &transport.Target{Role: "link", Name: transport.Match("Docs")}
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "href"})
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "href", ValueMatch: transport.Is("/docs?x=1")})
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "data-state", ValueMatch: transport.Is("closed"), IgnoreCase: true})
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "href", ValueMatch: transport.Like(`^/docs\?`, "")})
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "download", Not: true})
	s.passes(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "data-state", ValueMatch: transport.Is("closed"), Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "data-state", ValueMatch: transport.Is("Open"), Wait: once},
		`"Open"`, "Closed", `waiting for link named "Docs" to have attribute "data-state" "Open"`, `attribute "Closed"`)
	s.failsWith(transport.Assert{Kind: transport.AssertAttribute, Target: docs, Name: "download", Wait: once},
		`attribute "download" present`, `no attribute "download"`, `waiting for link named "Docs" to have attribute "download"`, `attribute no attribute "download"`)

	s.passes(transport.Assert{Kind: transport.AssertClass, Target: docs, ValueMatch: transport.Is("nav link active")})
	s.passes(transport.Assert{Kind: transport.AssertClass, Target: docs, ValueMatch: transport.Like(`(^|\s)active(\s|$)`, "")})
	s.passes(transport.Assert{Kind: transport.AssertClass, Target: docs, ValueMatch: transport.Is("nav link"), Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertClass, Target: docs, ValueMatch: transport.Is("nav link"), Wait: once},
		`"nav link"`, "nav  link   active", `waiting for link named "Docs" to have class "nav link"`, `class "nav  link   active"`)
	s.passes(transport.Assert{Kind: transport.AssertClassContains, Target: docs, Value: "active nav"})
	s.passes(transport.Assert{Kind: transport.AssertClassContains, Target: docs, Value: "disabled", Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertClassContains, Target: docs, Value: "nav disabled", Wait: once},
		`"nav disabled"`, "nav  link   active", `waiting for link named "Docs" to contain class "nav disabled"`, `classContains "nav  link   active"`)
}

// TestExpectText: the whole text, normalised for a string, raw for a regex (so a regex
// catches the item the page did not trim); ignoreCase; the list form compares every match
// in order; textContent by default, innerText on request.
func TestExpectText(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	items := &transport.Target{Role: "listitem"}
	milk := &transport.Target{Role: "listitem", HasText: transport.Match("buy milk")}
	s.passes(transport.Assert{Kind: transport.AssertText, Target: milk, ValueMatch: transport.Is("buy milk")})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: milk, ValueMatch: transport.Like(`^\s+buy milk\s+$`, "")})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: milk, ValueMatch: transport.Is("BUY MILK"), IgnoreCase: true})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: milk, ValueMatch: transport.Is("buy"), Not: true})
	// The trim bug: the string form normalises it away, the anchored regex sees it.
	s.failsWith(transport.Assert{Kind: transport.AssertText, Target: milk, ValueMatch: transport.Like("^buy milk$", ""), Wait: once},
		"/^buy milk$/", "  buy milk  ", `waiting for listitem hasText ~"buy milk" to have text /^buy milk$/`, `text "  buy milk  "`)
	s.passes(transport.Assert{Kind: transport.AssertText, Target: testID("zw"), ValueMatch: transport.Is("zerowidth")})

	s.passes(transport.Assert{Kind: transport.AssertText, Target: items, Values: []transport.ValueMatch{*transport.Is("feed the cat"), *transport.Is("buy milk"), *transport.Like("^walk\\s+the\\s+dog$", "")}})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: items, Values: []transport.ValueMatch{*transport.Is("feed the cat"), *transport.Is("buy milk")}, Not: true})
	oe := s.failsWith(transport.Assert{Kind: transport.AssertText, Target: items, Values: []transport.ValueMatch{*transport.Is("feed the dog"), *transport.Is("buy milk"), *transport.Is("walk the dog")}, TimeoutMs: 300},
		`["feed the dog","buy milk","walk the dog"]`, `["feed the cat","  buy milk  ","walk   the\n  dog"]`,
		`waiting for listitem to have text ["feed the dog","buy milk","walk the dog"]`, `text ["feed the cat"`)
	var got []string
	if err := json.Unmarshal([]byte(oe.Received), &got); err != nil || len(got) != 3 {
		t.Errorf("received is not a JSON list of 3: %q", oe.Received)
	}
	// A multi-match locator is ambiguous for one element's text.
	s.fails(transport.Assert{Kind: transport.AssertText, Target: items, ValueMatch: transport.Is("feed the cat")}, transport.CodeElementAmbiguous)

	// innerText leaves out what is not rendered; textContent keeps it.
	s.passes(transport.Assert{Kind: transport.AssertText, Target: labelled("Fruits"), ValueMatch: transport.Like("Apple", "")})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: testID("mixed"), ValueMatch: transport.Is("Visible hidden part")})
	s.passes(transport.Assert{Kind: transport.AssertText, Target: testID("mixed"), ValueMatch: transport.Is("Visible"), UseInnerText: true})
}

// TestExpectValuesCountURLTitle: a multi-select's selected values; count of a non-role
// locator; url by regex (the whole URL, hash included); title by regex.
func TestExpectValuesCountURLTitle(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	fruits := labelled("Fruits")
	s.passes(transport.Assert{Kind: transport.AssertValues, Target: fruits, Values: []transport.ValueMatch{*transport.Is("apple"), *transport.Like("^pl", "")}})
	s.passes(transport.Assert{Kind: transport.AssertValues, Target: fruits, Values: []transport.ValueMatch{*transport.Is("apple")}, Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertValues, Target: fruits, Values: []transport.ValueMatch{*transport.Is("pear")}, Wait: once},
		`["pear"]`, `["apple","plum"]`, `waiting for label ~"Fruits" to have values ["pear"]`, `values ["apple","plum"]`)
	s.fails(transport.Assert{Kind: transport.AssertValues, Target: labelled("Single"), Values: []transport.ValueMatch{}}, transport.CodeElementNotActionable)

	s.passes(transport.Assert{Kind: transport.AssertCount, Target: &transport.Target{Text: transport.Match("disabled")}, Value: "2"})
	s.passes(transport.Assert{Kind: transport.AssertCount, Target: &transport.Target{TestID: "shown"}, Value: "1"})
	s.failsWith(transport.Assert{Kind: transport.AssertCount, Target: &transport.Target{TestID: "shown"}, Value: "2", Wait: once},
		"2", "1", `waiting for testId "shown" to have count 2`, "count 1")

	// A target that never appears: element_not_found, with what was expected and the looks.
	oe := s.fails(transport.Assert{Kind: transport.AssertEnabled, Target: testID("never"), TimeoutMs: 300}, transport.CodeElementNotFound)
	if oe.Expected != "enabled" || oe.Received != "" || len(oe.CallLog) != 2 || oe.CallLog[0] != `waiting for testId "never" to be enabled` ||
		!strings.HasSuffix(oe.CallLog[1], "element not found") {
		t.Errorf("element_not_found details: expected %q received %q log %q", oe.Expected, oe.Received, oe.CallLog)
	}

	if _, err := transport.Dispatch(bg, s.rt, transport.Navigate{URL: s.base + "/expect#section-2"}); err != nil {
		t.Fatal(err)
	}
	s.passes(transport.Assert{Kind: transport.AssertURL, ValueMatch: transport.Like(`/expect#section-\d$`, "")})
	s.passes(transport.Assert{Kind: transport.AssertURL, ValueMatch: transport.Like(`/EXPECT#`, ""), IgnoreCase: true})
	s.passes(transport.Assert{Kind: transport.AssertURL, ValueMatch: transport.Like(`/expect$`, ""), Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertURL, ValueMatch: transport.Like(`/other`, ""), Wait: once},
		"//other/", s.base+"/expect", `waiting for page to have url //other/`, "url ")
	s.passes(transport.Assert{Kind: transport.AssertTitle, ValueMatch: transport.Like("^exp", "i")})
	s.failsWith(transport.Assert{Kind: transport.AssertTitle, ValueMatch: transport.Like("^Other", ""), Wait: once},
		"/^Other/", "Expect", `waiting for page to have title /^Other/`, `title "Expect"`)
	// value takes a regex too; a password field's value is still never read.
	s.passes(transport.Assert{Kind: transport.AssertValue, Target: labelled("Serial"), ValueMatch: transport.Like(`^SN-\d+$`, "")})
	oe = s.fails(transport.Assert{Kind: transport.AssertValue, Target: labelled("Secret"), ValueMatch: transport.Like(".", "")}, transport.CodeInvalidRequest)
	if strings.Contains(oe.Message, "hunter2") || oe.Received != "" {
		t.Errorf("a password's value leaked: %+v", oe)
	}
	// Nor through its value attribute.
	oe = s.fails(transport.Assert{Kind: transport.AssertAttribute, Target: labelled("Secret"), Name: "value", ValueMatch: transport.Is("x"), Wait: once}, transport.CodeAssertionFailed)
	if strings.Contains(oe.Received+oe.Message+strings.Join(oe.CallLog, "\n"), "hunter2") {
		t.Errorf("a password's value attribute leaked: %+v", oe)
	}
}

// TestExpectStorage: a key present, equal, JSON containing a subset, negated; a failure
// quotes the stored value.
func TestExpectStorage(t *testing.T) {
	t.Parallel()
	s := openExpect(t)
	local := func(k string) *transport.StorageKey {
		return &transport.StorageKey{Area: transport.StorageLocal, Key: k}
	}
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: local("theme")})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: local("theme"), Value: "dark"})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: local("prefs"), JSONContains: transport.JSONValue(`{"flags":{"beta":true},"tags":["c","a"]}`)})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: local("prefs"), JSONContains: transport.JSONValue(`{"flags":{"beta":false}}`), Not: true})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: local("missing"), Not: true})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: &transport.StorageKey{Area: transport.StorageSession, Key: "cart"}, Value: "3 items"})
	s.passes(transport.Assert{Kind: transport.AssertStorage, Storage: &transport.StorageKey{Area: transport.StorageSession, Key: "theme"}, Not: true})
	s.failsWith(transport.Assert{Kind: transport.AssertStorage, Storage: local("theme"), Value: "light", Wait: once},
		`"light"`, "dark", `waiting for page to have localStorage "theme" "light"`, `storage "dark"`)
	s.failsWith(transport.Assert{Kind: transport.AssertStorage, Storage: local("prefs"), JSONContains: transport.JSONValue(`{"lang":"fr"}`), Wait: once},
		`JSON containing {"lang":"fr"}`, `{"lang":"en","flags":{"beta":true,"n":3},"tags":["a","b","c"]}`,
		`waiting for page to have localStorage "prefs" containing {"lang":"fr"}`, `storage "{`)
	s.failsWith(transport.Assert{Kind: transport.AssertStorage, Storage: local("missing"), Wait: once},
		`key "missing" present`, `no key "missing"`, `waiting for page to have localStorage "missing"`, `storage no key "missing"`)
}

// TestExpectNeverQuotesASecret: a secret typed into a field that the page copies into
// localStorage and into its text never appears in a failure's received, message or log.
func TestExpectNeverQuotesASecret(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt, _ := openWithEvidence(t, site.URL, nil)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/expect"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: *labelled("Token"), Text: transport.FromEnv("PORTAL_TOKEN")}); err != nil {
		t.Fatal(err)
	}
	for _, a := range []transport.Assert{
		{Kind: transport.AssertStorage, Storage: &transport.StorageKey{Area: transport.StorageLocal, Key: "token"}, Value: "nope", Wait: once},
		{Kind: transport.AssertText, Target: testID("echo"), ValueMatch: transport.Is("nope"), TimeoutMs: 300},
		{Kind: transport.AssertAttribute, Target: labelled("Token"), Name: "id", ValueMatch: transport.Is("nope"), Wait: once},
	} {
		_, err := transport.Dispatch(bg, rt, a)
		oe := transport.AsOperationError("", err)
		if oe == nil || oe.Code != transport.CodeAssertionFailed {
			t.Fatalf("assert %s: %v", a.Kind, err)
		}
		all := oe.Message + "\n" + oe.Expected + "\n" + oe.Received + "\n" + strings.Join(oe.CallLog, "\n")
		noSecretPrefix(t, a.Kind+" failure", all)
		if a.Kind != transport.AssertAttribute && oe.Received == "" {
			t.Errorf("assert %s: no received at all (%+v)", a.Kind, oe)
		}
	}
}
