package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// openPage opens a session on a fixture page; the site closes when the test ends.
func openPage(t *testing.T, path string) *runtime.Runtime {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + path}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// byRole is an act target by role and exact name.
func byRole(role, name string) transport.Target {
	return transport.Target{Role: role, Name: transport.Match(name)}
}

// actOK dispatches an act that must succeed verified.
func actOK(t *testing.T, rt transport.Caller, a transport.Act) transport.ActResult {
	t.Helper()
	res, err := transport.Dispatch(bg, rt, a)
	if err != nil {
		t.Fatalf("%s %s: %v", a.Action, a.Target.Describe(), err)
	}
	if res.MutationState != transport.Verified {
		t.Fatalf("%s %s: mutationState %s", a.Action, a.Target.Describe(), res.MutationState)
	}
	return res
}

// sees waits (a bounded assert) for text the page writes.
func sees(t *testing.T, rt transport.Caller, text string) {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: text}); err != nil {
		t.Fatalf("the page never said %q: %v", text, err)
	}
}

// neverSaid checks, in one read, that the page has not written text.
func neverSaid(t *testing.T, rt transport.Caller, text string) {
	t.Helper()
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: text, Not: true, Wait: transport.WaitNone}); err != nil {
		t.Fatalf("the page said %q: %v", text, err)
	}
}

// An opacity:0 checkbox laid over its styled box is visible as Playwright counts it: check
// works and is verified.
func TestActOpacityZeroCheckbox(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actionability")
	res := actOK(t, rt, transport.Act{Action: transport.ActCheck, Target: byRole("checkbox", "I agree")})
	if res.Receipt.Checked != "true" {
		t.Fatalf("receipt %+v", res.Receipt)
	}
	sees(t, rt, "agree true")
}

// A delete button that is display:none until its row is hovered: not there to find,
// then, with the row hovered (through its link), clicked.
func TestActHoverReveals(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actionability")
	short := transport.WithRequestBudget(bg, 500*time.Millisecond)
	_, err := transport.Dispatch(short, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Delete Alpha")})
	// display:none keeps it out of the accessibility tree, so a look by role finds nothing.
	wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	actOK(t, rt, transport.Act{Action: transport.ActHover, Target: byRole("link", "Alpha report")})
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Delete Alpha")})
	sees(t, rt, "Deleted Alpha")
}

// An overlay the page's own timer takes away: the act waits for it and then clicks. One
// that never goes: the act waits out its budget and names the element intercepting, by tag
// and class, never by text.
func TestActCoveredWaitsAndNames(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actionability")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Accept later")})
	sees(t, rt, "Accepted later, banner gone")

	short := transport.WithRequestBudget(bg, time.Second)
	_, err := transport.Dispatch(short, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Never free")})
	oe := wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
	want := `button "Never free" is covered: <div class="cookie-banner modal"> intercepts pointer events; waited out the request budget (1s)`
	if !strings.Contains(oe.Message, want) {
		t.Errorf("message %q, want it to contain %q", oe.Message, want)
	}
	neverSaid(t, rt, "Never free clicked")
	// force skips the hit test: the click goes to the point, which the banner receives.
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Never free"), Force: true})
	if err != nil || res.MutationState != transport.Unknown {
		t.Fatalf("forced click under the banner: %+v %v (the banner takes it: unknown)", res, err)
	}
	neverSaid(t, rt, "Never free clicked")
}

// A button sliding in on load: the click waits until its box holds still, and lands then.
func TestActWaitsForStable(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actionability")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Moving target")})
	sees(t, rt, "Moving clicked at rest")
}

// A disabled button, one aria-disabled, one in a disabled fieldset: refused "is disabled"
// when the budget ends; force clicks the aria-disabled one (its listener runs). A read-only
// field refuses fill.
func TestActDisabled(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actionability")
	short := transport.WithRequestBudget(bg, 500*time.Millisecond)
	for _, name := range []string{"Native disabled", "Aria disabled", "Inside locked fieldset"} {
		_, err := transport.Dispatch(short, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", name)})
		oe := wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
		if !strings.Contains(oe.Message, "is disabled; waited out the request budget") {
			t.Errorf("%s: message %q", name, oe.Message)
		}
	}
	neverSaid(t, rt, "Aria disabled clicked")
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Aria disabled"), Force: true})
	sees(t, rt, "Aria disabled clicked")

	_, err := transport.Dispatch(short, rt, transport.Act{Action: transport.ActFill, Target: byRole("textbox", "Read only"), Text: transport.Literal("x")})
	oe := wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
	if !strings.Contains(oe.Message, "is read-only") {
		t.Errorf("message %q", oe.Message)
	}
}

// trial runs the checks and dispatches nothing: the receipt says trial, the state is
// not_attempted, and the page saw no click. A trial on a control that fails the checks
// fails as the act would.
func TestActTrial(t *testing.T) {
	t.Parallel()
	rt := openPage(t, "/actions")
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Counter"), Trial: true})
	if err != nil || res.MutationState != transport.NotAttempted || !res.Receipt.Trial || res.Receipt.Ref == "" {
		t.Fatalf("trial: %+v %v", res, err)
	}
	actOK(t, rt, transport.Act{Action: transport.ActClick, Target: byRole("button", "Counter")})
	sees(t, rt, "counter 1")
	neverSaid(t, rt, "counter 2")
}
