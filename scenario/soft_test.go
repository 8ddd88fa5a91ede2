package scenario

import (
	"context"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestSoftAssertionsLetTheScenarioGoOn: two soft assertions fail against real Chromium
// (one that does not hold, one whose element is not there); the operations after them run
// and pass, each failure stays on its operation with its location and code frame (its
// evidence: cmd/fastbrowser's TestFailureShowsWhatWasThere), and the scenario fails at the end naming the first. A hard assertion that
// fails after them still ends the scenario there.
func TestSoftAssertionsLetTheScenarioGoOn(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "soft",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/tabs"}},
			map[string]any{"id": "t", "op": "assert", "soft": true, "request": map[string]any{"kind": "title", "value": "Not the title", "wait": "none"}},
			map[string]any{"op": "assert", "soft": true, "request": map[string]any{"kind": "value", "value": "x", "wait": "none", "target": map[string]any{"role": "textbox", "name": "No such field"}}},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "Tabs"}},
			map[string]any{"op": "read"},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "Hard failure", "wait": "none"}},
			map[string]any{"op": "read"},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusFailed {
		t.Fatalf("status %s: %+v", rep.Status, rep.Error)
	}
	want := []string{StatusPassed, StatusFailed, StatusFailed, StatusPassed, StatusPassed, StatusFailed, StatusSkipped}
	for i, w := range want {
		if rep.Operations[i].Status != w {
			t.Errorf("operations[%d] %s, want %s: %+v", i, rep.Operations[i].Status, w, rep.Operations[i].Error)
		}
	}
	soft := rep.Operations[1]
	if soft.Error == nil || soft.Error.Code != transport.CodeAssertionFailed || !soft.Soft || soft.Location == nil || soft.CodeFrame == "" {
		t.Errorf("soft failure %+v", soft)
	}
	if e := rep.Operations[2].Error; e == nil || e.Code != transport.CodeElementNotFound {
		t.Errorf("missing element: %+v", e)
	}
	if e := rep.Error; e == nil || !strings.HasPrefix(e.Message, "2 soft assertions failed: operations[1] (assert): ") || e.Code != transport.CodeAssertionFailed {
		t.Errorf("scenario error %+v", e)
	}
	// The cause junit.xml and run --json name is the first failure: the soft one.
	if op, _ := rep.Cause(); op == nil || op.Index != 1 {
		t.Errorf("cause %+v", op)
	}
}

// TestSoftAssertionsOnlyPass: soft failures alone fail the scenario at its end, after every
// operation ran.
func TestSoftAssertionsOnlyPass(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "soft-end",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/tabs"}},
			map[string]any{"op": "assert", "soft": true, "request": map[string]any{"kind": "title", "value": "Nope", "wait": "none"}},
			map[string]any{"op": "read"},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusFailed || rep.Operations[2].Status != StatusPassed {
		t.Fatalf("%s %+v", rep.Status, rep.Operations)
	}
	if e := rep.Error; e == nil || !strings.HasPrefix(e.Message, "1 soft assertion failed: operations[1] (assert): ") {
		t.Errorf("scenario error %+v", e)
	}
}

// TestSoftOnlyOnAssert: soft on another op is refused with its path; an include entry
// cannot be soft.
func TestSoftOnlyOnAssert(t *testing.T) {
	_, err := Parse([]byte(`{"version":1,"id":"s","operations":[{"op":"listTabs"},{"op":"read","soft":true}]}`))
	if err == nil || !strings.Contains(err.Error(), `operations[1].soft: "soft" goes with op "assert"`) {
		t.Errorf("read: %v", err)
	}
	_, err = Parse([]byte(`{"version":1,"id":"s","operations":[{"op":"step","soft":true,"step":{"instruction":"Save","action":"click","postcondition":{"kind":"text","value":"Saved"}}}]}`))
	if err == nil || !strings.Contains(err.Error(), "operations[0].soft") {
		t.Errorf("step: %v", err)
	}
	_, err = Parse([]byte(`{"version":1,"id":"s","operations":[{"include":"f.json","soft":true}]}`))
	if err == nil || !strings.Contains(err.Error(), `an include entry has only "include" and "id"`) {
		t.Errorf("include: %v", err)
	}
	if _, err := Parse([]byte(`{"version":1,"id":"s","operations":[{"op":"assert","soft":true,"request":{"kind":"title","value":"x"}}]}`)); err != nil {
		t.Errorf("assert: %v", err)
	}
}
