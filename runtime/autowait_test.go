package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// An act waits, within its budget, for its target to appear and to become actionable: the
// /late page adds "Late button" and enables "Enabled later" 1.5 s after load. Without the
// wait the first act fails element_not_found at once.
func TestActWaitsForLateTarget(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/late"}); err != nil {
		t.Fatal(err)
	}
	res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Late button")}})
	if err != nil || res.MutationState != transport.Verified {
		t.Fatalf("click on the late button: %+v %v", res, err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Counted late"}); err != nil {
		t.Fatal(err)
	}
	if n := runtimetest.Clicks(t, site.URL)["late"]; n != 1 {
		t.Fatalf("the late button counted %d clicks, want 1", n)
	}

	// A ref observed while its button was still disabled: the act waits until it is enabled.
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/late"}); err != nil {
		t.Fatal(err)
	}
	ob := observe(t, rt)
	ref := findRef(ob.Nodes, "button", "Enabled later")
	if ref == "" || !strings.Contains(ob.Text, "disabled") {
		t.Fatalf("no disabled Enabled later button:\n%s", ob.Text)
	}
	res, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: ref}})
	if err != nil || res.MutationState != transport.Verified {
		t.Fatalf("click on the late-enabled button: %+v %v", res, err)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Counted lateenabled"}); err != nil {
		t.Fatal(err)
	}
	if n := runtimetest.Clicks(t, site.URL)["lateenabled"]; n != 1 {
		t.Fatalf("the late-enabled button counted %d clicks, want 1", n)
	}
}

// When the wait ends, the act fails as before (nothing was attempted) and says what it
// waited for and how long: the action-verification budget, or a shorter request budget.
func TestActWaitEnds(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/covered"}); err != nil {
		t.Fatal(err)
	}
	_, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Never there")}})
	oe := wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	if want := `no button named "Never there" appeared within the action budget (3s)`; oe.Message != want {
		t.Errorf("message %q, want %q", oe.Message, want)
	}
	// Found but never actionable (an overlay covers it): not_actionable, naming the wait.
	short := transport.WithRequestBudget(bg, time.Second)
	_, err = transport.Dispatch(short, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Covered button")}})
	oe = wantCode(t, err, transport.CodeElementNotActionable, transport.NotAttempted)
	if !strings.Contains(oe.Message, `is covered: <div id="overlay"> intercepts pointer events`) || !strings.HasSuffix(oe.Message, "; waited out the request budget (1s)") {
		t.Errorf("message %q", oe.Message)
	}
	_, err = transport.Dispatch(short, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Never there")}})
	oe = wantCode(t, err, transport.CodeElementNotFound, transport.NotAttempted)
	if want := `no button named "Never there" appeared within the request budget (1s)`; oe.Message != want {
		t.Errorf("message %q, want %q", oe.Message, want)
	}
	for page, n := range runtimetest.Clicks(t, site.URL) {
		if n != 0 {
			t.Errorf("the %s page counted %d clicks; a failed act reaches nothing", page, n)
		}
	}
}
