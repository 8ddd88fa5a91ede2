package runtime_test

import (
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
		"visible", "hidden (display:none)", `waiting for testId "none" to be visible`, "× hidden (display:none)")
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
