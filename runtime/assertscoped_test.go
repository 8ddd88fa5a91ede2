package runtime_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// assertTester dispatches assertions on one session and checks how they end.
type assertTester struct {
	t  *testing.T
	rt transport.Caller
}

func (a assertTester) passes(r transport.Assert) {
	a.t.Helper()
	if _, err := transport.Dispatch(bg, a.rt, r); err != nil {
		a.t.Errorf("assert %s: %v", describeAssert(r), err)
	}
}

// fails checks the code and that the message says msg; it returns the error.
func (a assertTester) fails(r transport.Assert, code transport.Code, msg string) *transport.OperationError {
	a.t.Helper()
	_, err := transport.Dispatch(bg, a.rt, r)
	oe := transport.AsOperationError("", err)
	if err == nil || oe.Code != code || oe.Operation != transport.OpAssert || !strings.Contains(oe.Message, msg) {
		a.t.Errorf("assert %s: %v, want %s saying %q", describeAssert(r), err, code, msg)
	}
	return oe
}

func describeAssert(r transport.Assert) string {
	b, _ := json.Marshal(r)
	return string(b)
}

// openAsserts opens a session on the fixture's /asserts page.
func openAsserts(t *testing.T) transport.Caller {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/asserts"}); err != nil {
		t.Fatal(err)
	}
	return rt
}

func role(role, name string) *transport.Target {
	return &transport.Target{Role: role, Name: transport.Match(name)}
}

// exactRole is role with the name compared whole and case-sensitively (a name is a
// case-insensitive substring by default).
func exactRole(role, name string) *transport.Target {
	exact := true
	return &transport.Target{Role: role, Name: transport.Match(name), Exact: &exact}
}

// openAssertsWithSecret opens a session on the fixture's /asserts page with secret typed
// into its Token field (from ASSERT_TOKEN, so the session knows it as a secret).
func openAssertsWithSecret(t *testing.T, secret string) transport.Caller {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL},
		LookupEnv: func(name string) (string, bool) { return secret, name == "ASSERT_TOKEN" }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/asserts"}); err != nil {
		t.Fatal(err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: *role("textbox", "Token"), Text: transport.FromEnv("ASSERT_TOKEN")}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// TestAssertScopedKinds: textContains scoped to an element (a region, by role and name) and
// to a table cell (row by a cell's text, column by its header), value, checked and count,
// each passing and failing, with not, one read and a short timeoutMs. Failures say what was
// expected and what was found, and name the budget they waited within.
func TestAssertScopedKinds(t *testing.T) {
	t.Parallel()
	rt := openAsserts(t)
	a := assertTester{t, rt}
	none := transport.WaitMode(transport.WaitNone)
	users := role("table", "Users")

	// textContains in an element: the region's text, not the page's.
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "Signed in as alice", Target: role("region", "Account")})
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "Call support", Target: role("region", "Account"), Not: true, Wait: none})
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "Call support", Target: role("region", "Account"), TimeoutMs: 1000},
		transport.CodeAssertionFailed, `text of region "Account" did not contain "Call support" within the assertion's timeoutMs (1s) (its text is "Signed in as alice Plan renews on 1 May")`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "alice", Target: role("region", "Account"), Not: true, Wait: none},
		transport.CodeAssertionFailed, `textContains of region "Account" still matched "alice" on one read`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: role("region", "Nowhere"), Wait: none},
		transport.CodeElementNotFound, `no region named "Nowhere" (one read)`)

	// textContains in a table cell: the row by a cell's whole text (bob, not bobby), else the
	// one row with a cell containing it; the column by its header.
	cell := func(row, col string) *transport.Cell { return &transport.Cell{Row: row, Column: col} }
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "admin", Cell: cell("alice", "Role")})
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "invited", Cell: cell("bob", "Status")})
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "suspended", Cell: &transport.Cell{Table: users, Row: "bobby", Column: "status"}})
	a.passes(transport.Assert{Kind: transport.AssertTextContains, Value: "admin", Cell: cell("bob", "Role"), Not: true, Wait: none})
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "admin", Cell: cell("bob", "Role"), Wait: none},
		transport.CodeAssertionFailed, `text of cell (row "bob", column "Role") did not contain "admin" on one read (its text is "user")`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Cell: cell("carol", "Role"), TimeoutMs: 1000},
		transport.CodeElementNotFound, `no row with a cell "carol" under column "Role" in the page's tables appeared within the assertion's timeoutMs (1s)`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Cell: &transport.Cell{Table: users, Row: "alice", Column: "Email"}, Wait: none},
		transport.CodeElementNotFound, `no column headed "Email" in table "Users" (one read)`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Cell: cell("ob", "Role"), Wait: none},
		transport.CodeElementAmbiguous, `2 rows have a cell containing "ob"`)

	// value: a field's current value; a select's chosen label or value.
	a.passes(transport.Assert{Kind: transport.AssertValue, Value: "alice@example.com", Target: role("textbox", "Email")})
	a.passes(transport.Assert{Kind: transport.AssertValue, ValueMatch: transport.Is(""), Target: role("textbox", "Nickname")})
	a.passes(transport.Assert{Kind: transport.AssertValue, Value: "Professional", Target: role("combobox", "Plan")})
	a.passes(transport.Assert{Kind: transport.AssertValue, Value: "pro", Target: role("combobox", "Plan")})
	a.passes(transport.Assert{Kind: transport.AssertValue, Value: "bob@example.com", Target: role("textbox", "Email"), Not: true})
	a.fails(transport.Assert{Kind: transport.AssertValue, Value: "bob@example.com", Target: role("textbox", "Email"), Wait: none},
		transport.CodeAssertionFailed, `value of textbox "Email" was not "bob@example.com" on one read (value is "alice@example.com")`)
	a.fails(transport.Assert{Kind: transport.AssertValue, Value: "x", Target: role("button", "Save changes"), Wait: none},
		transport.CodeElementNotActionable, `button "Save changes" is not a form field`)

	// checked: checkboxes and ARIA switches.
	a.passes(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: role("checkbox", "Remember me")})
	a.passes(transport.Assert{Kind: transport.AssertChecked, Value: "false", Target: role("checkbox", "Newsletter")})
	a.passes(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: role("switch", "Dark mode")})
	a.passes(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: role("checkbox", "Newsletter"), Not: true})
	a.fails(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: role("checkbox", "Newsletter")},
		transport.CodeAssertionFailed, `checkbox "Newsletter" was not checked within the assertion budget (5s) (it is unchecked)`)
	a.fails(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: role("textbox", "Email"), Wait: none},
		transport.CodeElementNotActionable, `textbox "Email" is not a checkbox, radio or switch`)

	// count: elements by role and name, zero included.
	a.passes(transport.Assert{Kind: transport.AssertCount, Value: "3", Target: role("button", "Delete")})
	a.passes(transport.Assert{Kind: transport.AssertCount, Value: "0", Target: role("button", "Sign in")})
	a.passes(transport.Assert{Kind: transport.AssertCount, Value: "2", Target: role("button", "Delete"), Not: true})
	a.fails(transport.Assert{Kind: transport.AssertCount, Value: "2", Target: role("button", "Delete"), Wait: none},
		transport.CodeAssertionFailed, `count of button named "Delete" was not 2 on one read (found 3)`)

	// Shapes refused before anything is read.
	for _, c := range []struct {
		r    transport.Assert
		path string
	}{
		{transport.Assert{Kind: transport.AssertValue, Value: "x"}, "request.target"},
		{transport.Assert{Kind: transport.AssertCount, Value: "1", Target: &transport.Target{Ref: "e1"}}, "request.target"},
		{transport.Assert{Kind: transport.AssertCount, Value: "01", Target: role("button", "Delete")}, "request.value"},
		{transport.Assert{Kind: transport.AssertChecked, Value: "yes", Target: role("checkbox", "Newsletter")}, "request.value"},
		{transport.Assert{Kind: transport.AssertTitle, Value: "x", Target: role("button", "Delete")}, "request.target"},
		{transport.Assert{Kind: transport.AssertValue, Value: "x", Cell: cell("a", "b")}, "request.cell"},
		{transport.Assert{Kind: transport.AssertTextContains, Value: "x", Cell: cell(" ", "Role")}, "request.cell.row"},
	} {
		_, err := transport.Dispatch(bg, rt, c.r)
		if oe := transport.AsOperationError("", err); oe == nil || oe.Code != transport.CodeInvalidRequest || oe.Path != c.path {
			t.Errorf("assert %s: %v, want invalid_request at %s", describeAssert(c.r), err, c.path)
		}
	}
}

// TestAssertValueRefusesSecrets: the value of a password field, and of a field a secret was
// typed into, is never read: the assertion is refused (invalid_request in phase policy,
// with not too) and neither the message nor anything else the session returns holds it.
func TestAssertValueRefusesSecrets(t *testing.T) {
	t.Parallel()
	const secret = "tok-9f8e7d6c5b"
	rt := openAssertsWithSecret(t, secret)
	a := assertTester{t, rt}
	for _, c := range []struct {
		r   transport.Assert
		why string
	}{
		{transport.Assert{Kind: transport.AssertValue, Value: "guess", Target: role("textbox", "Password")}, "it is a password field"},
		{transport.Assert{Kind: transport.AssertValue, Value: fixture.AssertsPasswordValue, Target: role("textbox", "Password"), Not: true}, "it is a password field"},
		{transport.Assert{Kind: transport.AssertValue, Value: "guess", Target: role("textbox", "Token")}, "a secret was typed into it"},
		{transport.Assert{Kind: transport.AssertValue, Value: "guess", Target: role("textbox", "Token"), Not: true, Wait: transport.WaitMode(transport.WaitNone)}, "a secret was typed into it"},
	} {
		oe := a.fails(c.r, transport.CodeInvalidRequest, c.why)
		if oe == nil {
			continue
		}
		if oe.Phase != transport.PhasePolicy || oe.Path != "request.target" || oe.Retry != transport.RetryNever {
			t.Errorf("refusal %+v, want phase policy, path request.target, retry never", oe)
		}
		raw, _ := json.Marshal(oe)
		for _, v := range []string{secret, fixture.AssertsPasswordValue} {
			if strings.Contains(string(raw), v) {
				t.Errorf("the refusal shows a field's value: %s", raw)
			}
		}
	}
	// Another field's value still reads, and a value the page copied from a secret is
	// masked in the message like every output.
	a.fails(transport.Assert{Kind: transport.AssertValue, Value: "x", Target: role("textbox", "Email"), Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeAssertionFailed, `(value is "alice@example.com")`)
}

// TestNotFoundNamesTheNearElement: when act's or assert's role and name find nothing, the
// message names the element a person most likely meant: the same name under another role,
// or the same role with the name spelled another way (an exact name: by default a name is a
// case-insensitive substring, which finds those).
func TestNotFoundNamesTheNearElement(t *testing.T) {
	t.Parallel()
	rt := openAsserts(t)
	// act waits its whole budget for a target that never comes (no shorter budget: a first
	// look cut short on a loaded machine would fail timeout, not element_not_found).
	for _, c := range []struct {
		target transport.Target
		want   string
	}{
		{*role("button", "Sign in"), `no button named "Sign in" appeared within the action budget (3s); a link named "Sign in" exists`},
		{*exactRole("button", "save changes"), `no button named "save changes" appeared within the action budget (3s); a button named "Save changes" exists`},
	} {
		_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: c.target})
		if oe := transport.AsOperationError("", err); oe == nil || oe.Code != transport.CodeElementNotFound || oe.Message != c.want {
			t.Errorf("act on %+v: %v, want element_not_found %q", c.target, err, c.want)
		}
	}
	none := transport.WaitMode(transport.WaitNone)
	_, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: role("button", "Nothing like it"), Wait: none})
	if oe := transport.AsOperationError("", err); oe == nil || oe.Message != `no button named "Nothing like it" (one read)` {
		t.Errorf("a name like nothing on the page: %v, want no hint", err)
	}
	a := assertTester{t, rt}
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: exactRole("button", "Save"), Wait: none},
		transport.CodeElementNotFound, `no button named "Save" (one read); a button named "Save changes" exists`)
	a.fails(transport.Assert{Kind: transport.AssertChecked, Value: "true", Target: exactRole("checkbox", "Remember"), Wait: none},
		transport.CodeElementNotFound, `no checkbox named "Remember" (one read); a checkbox named "Remember me" exists`)
	a.fails(transport.Assert{Kind: transport.AssertTextContains, Value: "x", Target: role("region", "Users"), Wait: none},
		transport.CodeElementNotFound, `no region named "Users" (one read); a table named "Users" exists`)
}

// TestAssertMessageNeverCutsASecret: a failed assertion quotes what it found clipped to 200
// characters; a secret typed in the session that the cut would split is masked before the
// cut (the runtime's scrub after it could not recognise a part of one).
func TestAssertMessageNeverCutsASecret(t *testing.T) {
	t.Parallel()
	const secret = "tok-9f8e7d6c5b-a1b2c3d4"
	rt := openAssertsWithSecret(t, secret)
	// The page holds the secret where the 200-character cut falls (another field's value).
	typed := strings.Repeat("x", 190) + secret
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: *role("textbox", "Nickname"), Text: transport.Literal(typed)}); err != nil {
		t.Fatal(err)
	}
	oe := assertTester{t, rt}.fails(transport.Assert{Kind: transport.AssertValue, Value: "x", Target: role("textbox", "Nickname"), Wait: transport.WaitMode(transport.WaitNone)},
		transport.CodeAssertionFailed, `value of textbox "Nickname" was not "x" on one read (value is "xxxx`)
	if strings.Contains(oe.Message, secret[:10]) {
		t.Errorf("the message holds a part of the secret: %s", oe.Message)
	}
}
