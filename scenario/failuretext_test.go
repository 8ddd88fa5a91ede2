package scenario

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestFailureLines: expected and received line up with a caret under the first character
// that differs, the call log is listed, and the location and code frame close the block.
func TestFailureLines(t *testing.T) {
	oe := transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "text did not match")
	oe.Expected, oe.Received = "feed the dog", "feed the cat"
	oe.CallLog = []string{`waiting for listitem to have text "feed the dog"`, `3 × text "feed the cat"`}
	op := &OperationReport{Index: 3, Op: transport.OpAssert, Status: StatusFailed, Error: oe,
		Location: &Location{File: "scenarios/todo.json", Line: 12, Column: 7}, CodeFrame: "> 12 |       {\n     |       ^"}
	got := strings.Join(FailureOf(op).Lines(true), "\n")
	want := strings.Join([]string{
		"Error: assertion_failed: text did not match",
		`Expected: "feed the dog"`,
		`Received: "feed the cat"`,
		strings.Repeat(" ", 20) + "^", // under the "c" of "cat"
		"Call log:",
		`  - waiting for listitem to have text "feed the dog"`,
		`  - 3 × text "feed the cat"`,
		"at scenarios/todo.json:12:7",
		"> 12 |       {",
		"     |       ^",
	}, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if lines := FailureOf(op).Lines(false); lines[0] != `Expected: "feed the dog"` {
		t.Errorf("without the message: %q", lines[0])
	}
}

func TestFailureValues(t *testing.T) {
	for _, c := range []struct{ exp, rec, shownExp, shownRec, caret string }{
		{"Buy milk", "Buy milk ", `"Buy milk"`, `"Buy milk "`, "         ^"}, // a trailing space is seen and marked
		{`["a","b"]`, `["a","c"]`, `["a","b"]`, `["a","c"]`, "      ^"},      // lists as written
		{"3", "2", "3", "2", "^"},                                // counts as written
		{"x", "", `"x"`, ReceivedNone, ""},                       // nothing to compare
		{"same", "same", `"same"`, `"same"`, ""},                 // no difference, no caret
		{"line\x1b[2J", "a\nb", `"line\x1b[2J"`, `"a\nb"`, " ^"}, // escapes stay escaped
	} {
		oe := transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "m")
		oe.Expected, oe.Received = c.exp, c.rec
		f := FailureOf(&OperationReport{Op: transport.OpAssert, Status: StatusFailed, Error: oe})
		if f.Expected != c.shownExp || f.Received != c.shownRec || f.Caret != c.caret {
			t.Errorf("%q/%q: got %q %q caret %q", c.exp, c.rec, f.Expected, f.Received, f.Caret)
		}
	}
	// Without the assertion's own values: the kind and value the file wrote, no received.
	oe := transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "m\x1b")
	f := FailureOf(&OperationReport{Op: transport.OpAssert, Status: StatusFailed, Value: `title "Dashboard"`, Error: oe})
	if got := strings.Join(f.Lines(true), "|"); got != "Error: assertion_failed: m\uFFFD|Expected: title \"Dashboard\"" {
		t.Errorf("fallback: %q", got)
	}
	if FailureOf(&OperationReport{Op: transport.OpAssert, Status: StatusPassed}) != nil {
		t.Error("a passed operation has no failure")
	}
}
