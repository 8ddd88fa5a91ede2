package runtime_test

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// locatorSession opens a session on one of the fixture's pages.
func locatorSession(t *testing.T, page string) transport.Caller {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + page}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// acts performs an act and returns its receipt, failing the test on an error.
func acts(t *testing.T, rt transport.Caller, action string, tg transport.Target) transport.Receipt {
	t.Helper()
	r := transport.Act{Action: action, Target: tg}
	if action == transport.ActType {
		r.Text = transport.Literal("Ada")
	}
	res, err := transport.Dispatch(bg, rt, r)
	if err != nil {
		t.Fatalf("%s %s: %v", action, tg.Describe(), err)
	}
	return res.Receipt
}

// shows waits (an assertion's budget) until the page's result line holds want.
func shows(t *testing.T, rt transport.Caller, want string) {
	t.Helper()
	a := assertTester{t, rt}
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: want, Target: &transport.Target{TestID: "result"}})
}

// counts asserts how many elements a target matches.
func counts(t *testing.T, rt transport.Caller, tg transport.Target, n string) {
	t.Helper()
	a := assertTester{t, rt}
	a.passes(transport.Assert{Kind: transport.AssertCount, Value: n, Target: &tg, Wait: transport.WaitMode(transport.WaitNone)})
}

func yes() *bool { b := true; return &b }

func nth(i int) *int { return &i }

// TestLocatorRefinements: on ten rows alike but for their names, a button by role and name
// is ambiguous, refused with the first five candidates; within a row found by hasText or
// has, or picked with nth (negative too), first or last, it is the one clicked. An unnamed
// checkbox is found by its role within its row. count counts every match.
func TestLocatorRefinements(t *testing.T) {
	t.Parallel()
	rt := locatorSession(t, "/rows")
	edit := transport.Target{Role: "button", Name: transport.Match("Edit")}

	_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: edit})
	oe := wantCode(t, err, transport.CodeElementAmbiguous, transport.NotAttempted)
	t.Logf("refused: %s", oe.Message)
	if !strings.HasPrefix(oe.Message, `10 elements match button ~"Edit": 1. button "Edit" at (`) ||
		!strings.Contains(oe.Message, `; 5. button "Edit" at (`) || strings.Contains(oe.Message, "6. ") ||
		!strings.HasSuffix(oe.Message, "; …; add nth, first or last, or a refinement (within, hasText, has)") || oe.Path != "request.target" {
		t.Errorf("ambiguous Edit: %q at %q", oe.Message, oe.Path)
	}

	row := func(tg transport.Target) *transport.Target { return &tg }
	for _, c := range []struct {
		tg   transport.Target
		want string
	}{
		{transport.Target{Role: "button", Name: transport.Match("Edit"), Within: row(transport.Target{Role: "listitem", HasText: transport.Match("Row 7")})}, "Edited item 7"},
		{transport.Target{Role: "button", Name: transport.Match("Edit"), Within: row(transport.Target{Role: "listitem", Has: row(transport.Target{Text: transport.Match("Row 1"), Exact: yes()})})}, "Edited item 1"},
		{transport.Target{Role: "listitem", Has: row(transport.Target{Text: transport.Match("Row 10")})}, ""}, // the row itself: a click on its middle
		{transport.Target{Role: "button", Name: transport.Match("edit"), Nth: nth(2)}, "Edited item 3"},
		{transport.Target{Role: "button", Name: transport.Match("Edit"), Nth: nth(-2)}, "Edited item 9"},
		{transport.Target{Role: "button", Name: transport.Match("Edit"), First: true}, "Edited item 1"},
		{transport.Target{Role: "button", Name: transport.Match("Edit"), Last: true}, "Edited item 10"},
		{transport.Target{Text: transport.Match("Edit"), Within: row(transport.Target{Role: "listitem", HasText: transport.Match("Row 5")})}, "Edited item 5"},
	} {
		rc := acts(t, rt, transport.ActClick, c.tg)
		if c.want == "" {
			if rc.Role != "listitem" || rc.Ref == "" {
				t.Errorf("click %s: receipt %+v, want a listitem with a ref", c.tg.Describe(), rc)
			}
			continue
		}
		if rc.Role != "button" || rc.Name != "Edit" || rc.Ref == "" {
			t.Errorf("click %s: receipt %+v, want button \"Edit\" with a ref", c.tg.Describe(), rc)
		}
		shows(t, rt, c.want)
	}

	rc := acts(t, rt, transport.ActCheck, transport.Target{Role: "checkbox", Within: row(transport.Target{Role: "listitem", HasText: transport.Match("Row 4")})})
	if rc.Checked != "true" || rc.Role != "checkbox" {
		t.Errorf("check the unnamed checkbox of row 4: receipt %+v", rc)
	}
	shows(t, rt, "Ticked item 4")

	counts(t, rt, transport.Target{Role: "listitem"}, "10")
	counts(t, rt, transport.Target{Text: transport.Match("Row 1")}, "2") // Row 1 and Row 10
	counts(t, rt, transport.Target{Text: transport.Match("Row 1"), Exact: yes()}, "1")
	counts(t, rt, transport.Target{Text: transport.MatchRegex(`^Row \d$`, "")}, "9")
	counts(t, rt, transport.Target{Role: "checkbox", Within: row(transport.Target{Role: "listitem", HasText: transport.Match("Row 1")})}, "2")
	counts(t, rt, transport.Target{Role: "button", Name: transport.Match("Edit"), Nth: nth(10)}, "0")
	a := assertTester{t, rt}
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "Row 7 Edit", Target: &transport.Target{Role: "listitem", HasText: transport.Match("row 7")}})
	a.passes(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: &transport.Target{Role: "checkbox", Nth: nth(3)}})
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: &transport.Target{Role: "listitem", HasText: transport.Match("Row 1")}, Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeElementAmbiguous, `2 elements match listitem hasText ~"Row 1": 1. listitem`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: &transport.Target{Role: "listitem", HasText: transport.Match("Row 11")}, Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeElementNotFound, `no listitem hasText ~"Row 11" (one read)`)
}

// TestLocatorKinds: each locator kind finds its element, acted on and asserted on: text (the
// innermost element holding it), a field by its label (for=, wrapping, aria-labelledby,
// aria-label) and by its placeholder, an image by its alt text, a button by its title and
// by its test id (one inside a shadow root). A name is a case-insensitive substring unless
// exact, or a regex; has keeps the container holding an element.
func TestLocatorKinds(t *testing.T) {
	t.Parallel()
	rt := locatorSession(t, "/locators")
	a := assertTester{t, rt}
	none := transport.WaitMode(transport.WaitNone)

	_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Text: transport.Match("say HELLO")}})
	oe := wantCode(t, err, transport.CodeElementAmbiguous, transport.NotAttempted)
	if !strings.HasPrefix(oe.Message, `2 elements match text ~"say HELLO": 1. `) {
		t.Errorf("ambiguous text: %q", oe.Message)
	}
	acts(t, rt, transport.ActClick, transport.Target{Text: transport.Match("Say hello"), Exact: yes()})
	shows(t, rt, "Done: greet")

	for _, tg := range []transport.Target{
		{Label: transport.Match("First name")},
		{Label: transport.Match("last NAME")},
		{Label: transport.Match("Town or city"), Exact: yes()},
		{Label: transport.MatchRegex("^post", "i")},
		{Placeholder: transport.Match("search the catalogue")},
		{Placeholder: transport.Match("Your message")},
	} {
		rc := acts(t, rt, transport.ActType, tg)
		if rc.Ref == "" || rc.Role != "textbox" {
			t.Errorf("type into %s: receipt %+v, want a textbox with a ref", tg.Describe(), rc)
		}
		a.passes(transport.Assert{Kind: transport.AssertValue, Value: "Ada", Target: &tg, Wait: none})
	}

	for _, c := range []struct {
		tg         transport.Target
		done, role string
	}{
		{transport.Target{AltText: transport.Match("company logo")}, "logo", "img"},
		{transport.Target{Title: transport.Match("Close the")}, "close", "button"},
		{transport.Target{TestID: "store-button"}, "store", "button"},
		{transport.Target{TestID: "deep-button"}, "deep", "button"},
		{transport.Target{Role: "button", Name: transport.Match("Save"), Exact: yes()}, "save", "button"},
		{transport.Target{Role: "button", Name: transport.Match("SAVE DRAFT")}, "save-draft", "button"},
		{transport.Target{Role: "button", Name: transport.MatchRegex("^save a", "i")}, "save-all", "button"},
	} {
		rc := acts(t, rt, transport.ActClick, c.tg)
		if rc.Role != c.role || rc.Ref == "" {
			t.Errorf("click %s: receipt %+v, want a %s with a ref", c.tg.Describe(), rc, c.role)
		}
		shows(t, rt, "Done: "+c.done)
	}
	if rc := acts(t, rt, transport.ActClick, transport.Target{TestID: "store-button"}); rc.Name != "Store" {
		t.Errorf("the test id's button: receipt %+v, want its name Store", rc)
	}

	counts(t, rt, transport.Target{Role: "button", Name: transport.Match("save")}, "3")
	counts(t, rt, transport.Target{Role: "button", Name: transport.Match("save"), Exact: yes()}, "0")
	counts(t, rt, transport.Target{Role: "button", Name: transport.MatchRegex("^Save", "")}, "2")
	counts(t, rt, transport.Target{TestID: "store"}, "0") // a test id is compared whole
	counts(t, rt, transport.Target{Role: "region", Has: &transport.Target{Text: transport.Match("friend")}}, "1")
	counts(t, rt, transport.Target{Role: "region", Has: &transport.Target{Label: transport.Match("First name")}}, "0")
	counts(t, rt, transport.Target{Role: "form", Has: &transport.Target{Label: transport.Match("First name")}}, "1")
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "Welcome, friend", Target: &transport.Target{Text: transport.Match("Welcome")}})
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: &transport.Target{Placeholder: transport.Match("Nowhere")}, Wait: none},
		transport.CodeElementNotFound, `no element with placeholder ~"Nowhere" (one read)`)
}

// TestLocatorsInFrames: the kinds found in the page are found in its frames too: a
// same-origin frame's button by its text, and a cross-site (out-of-process) frame's field by
// its label and button by its text, where the input lands (the frame's echo, the server's
// click counter).
func TestLocatorsInFrames(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	page, framed := crossSite(site.URL)
	rt := runtimetest.Open(t, site.URL, framed)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/frames"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Text: transport.Match("Inner button")}})
	if err != nil || res.MutationState != transport.Verified || res.Receipt.Role != "button" {
		t.Fatalf("click in the same-origin frame by text: %+v %v", res, err)
	}

	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: page}); err != nil {
		t.Fatal(err)
	}
	res, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Label: transport.Match("card number")}, Text: transport.Literal("4111-2222")})
	if err != nil || res.MutationState != transport.Verified || res.Receipt.Role != "textbox" {
		t.Fatalf("type into the cross-site frame by label: %+v %v", res, err)
	}
	res, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Text: transport.Match("Pay"), Exact: yes()}})
	if err != nil || res.MutationState != transport.Verified {
		t.Fatalf("click in the cross-site frame by text: %+v %v", res, err)
	}
	a := assertTester{t, rt}
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "Paid", Target: &transport.Target{Text: transport.Match("paid")}})
	counts(t, rt, transport.Target{Text: transport.Match("4111-2222")}, "1") // the frame's echo
	if n := runtimetest.Clicks(t, site.URL)["framed"]; n != 1 {
		t.Fatalf("the frame's Pay counted %d clicks, want 1", n)
	}
}

// TestLocatorTestIDAttribute: a session's TestIDAttribute (a run's testIdAttribute) is the
// attribute testId compares; data-testid then means nothing.
func TestLocatorTestIDAttribute(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), TestIDAttribute: "data-act"})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/locators"}); err != nil {
		t.Fatal(err)
	}
	if rc := acts(t, rt, transport.ActClick, transport.Target{TestID: "store"}); rc.Name != "Store" {
		t.Errorf("testId store under data-act: receipt %+v, want the Store button", rc)
	}
	if res, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Done: store"}); err != nil || !res.Passed {
		t.Errorf("the click on the data-act button: %+v %v", res, err)
	}
	counts(t, rt, transport.Target{TestID: "store-button"}, "0")
}
