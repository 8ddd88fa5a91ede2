package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// runOnFixtureForm runs a scenario on the fixture site: a navigate to /form, then ops.
func runOnFixtureForm(t *testing.T, ops ...any) ScenarioReport {
	t.Helper()
	site := runtimetest.Fixture()
	defer site.Close()
	all := append([]any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/form"}}}, ops...)
	l := load(t, map[string]any{"version": 1, "id": "when", "fixture": map[string]any{"baseUrl": site.URL}, "operations": all})
	opened := 0
	return Run(context.Background(), l, countingEnv(t, &opened))
}

// TestWhenRunsOrSkips: on the fixture's sign-in form, an operation whose when holds runs; one
// whose when does not hold is skipped with its skipReason and leaves the page untouched (the
// click on a link that would navigate did not happen: the page is still /form); the scenario
// passes.
func TestWhenRunsOrSkips(t *testing.T) {
	forgot := map[string]any{"action": "click", "target": map[string]any{"role": "link", "name": "Forgot password?"}}
	rep := runOnFixtureForm(t,
		map[string]any{"op": "act", "request": forgot, "when": map[string]any{"kind": "title", "value": "Not this page"}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "url", "value": "/form", "wait": "none"}},
		map[string]any{"op": "act", "request": map[string]any{"action": "type", "target": map[string]any{"role": "textbox", "name": "Username"}, "text": "ada"},
			"when": map[string]any{"kind": "count", "value": "1", "target": map[string]any{"role": "button", "name": "Sign in"}}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "value", "value": "ada", "target": map[string]any{"role": "textbox", "name": "Username"}, "wait": "none"}},
		// not: the title is "Sign in", so "not title Sign in" does not hold.
		map[string]any{"op": "act", "request": forgot, "when": map[string]any{"kind": "title", "value": "Sign in", "not": true}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "url", "value": "/form", "wait": "none"}},
	)
	if rep.Status != StatusPassed {
		for _, op := range rep.Operations {
			t.Logf("operations[%d] %s %s %q %v", op.Index, op.Op, op.Status, op.SkipReason, op.Error)
		}
		t.Fatalf("status %s, error %v", rep.Status, rep.Error)
	}
	for i, want := range []string{StatusPassed, StatusSkipped, StatusPassed, StatusPassed, StatusPassed, StatusSkipped, StatusPassed} {
		op := rep.Operations[i]
		if op.Status != want || (want == StatusSkipped) != (op.SkipReason == skippedByWhen) || op.Error != nil {
			t.Errorf("operations[%d]: status %s, skipReason %q, error %+v; want %s", i, op.Status, op.SkipReason, op.Error, want)
		}
	}
	// The report says so in JSON.
	raw, err := json.Marshal(rep.Operations[1])
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil || back["status"] != "skipped" || back["skipReason"] != skippedByWhen {
		t.Fatalf("report operation %s", raw)
	}
}

// TestWhenLookFailureFailsTheOperation: a when whose look fails for another reason than the
// fact (a value of an element that is not there) fails the operation with that error; nothing
// is skipped silently.
func TestWhenLookFailureFailsTheOperation(t *testing.T) {
	rep := runOnFixtureForm(t,
		map[string]any{"op": "read", "when": map[string]any{"kind": "value", "value": "x", "target": map[string]any{"role": "textbox", "name": "No such field"}}})
	op := rep.Operations[1]
	if rep.Status != StatusFailed || op.Status != StatusFailed || op.SkipReason != "" || op.Error == nil || op.Error.Code != transport.CodeElementNotFound {
		t.Fatalf("status %s; operation %+v error %+v", rep.Status, op, op.Error)
	}
}

// TestWhenRefusedAtLoad: a when is checked like the assertion it becomes, at
// operations[N].when.
func TestWhenRefusedAtLoad(t *testing.T) {
	cases := []struct{ when, path string }{
		{`{"kind":"html","value":"x"}`, "operations[1].when.kind"},
		{`{"kind":"checked","value":"maybe","target":{"role":"checkbox","name":"A"}}`, "operations[1].when.value"},
		{`{"kind":"value","value":"x"}`, "operations[1].when.target"},
		{`{"kind":"title","value":"x","wait":"none"}`, "operations[1].when.wait"},
		{`{"kind":"url","value":"ftp://a.test/"}`, "operations[1].when.value"},
	}
	for _, c := range cases {
		data := `{"version":1,"id":"s","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[{"op":"read"},{"op":"read","when":` + c.when + `}]}`
		_, err := Parse([]byte(data))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.path {
			t.Errorf("when %s: %v, want a refusal at %s", c.when, err, c.path)
		}
	}
	// A relative url resolves against the fixture's base URL, as assert's does.
	l, err := Parse([]byte(`{"version":1,"id":"s","fixture":{"baseUrl":"http://127.0.0.1:4310"},"operations":[{"op":"read","when":{"kind":"url","value":"/form"}}]}`))
	if err != nil || l.Operations[0].When.Value.String != "http://127.0.0.1:4310/form" {
		t.Fatalf("%v %+v", err, l)
	}
}

// TestWhenTakesTheNewKinds: a condition may be any assertion kind (issue 26): an element
// state with no value (visible: a banner that is not there skips its dismissal; hidden
// holds for nothing at all), an attribute with a name, and a regex value.
func TestWhenTakesTheNewKinds(t *testing.T) {
	forgot := map[string]any{"action": "click", "target": map[string]any{"role": "link", "name": "Forgot password?"}}
	username := map[string]any{"role": "textbox", "name": "Username"}
	rep := runOnFixtureForm(t,
		// No "Accept cookies" button on the form: not visible, so the click is skipped.
		map[string]any{"op": "act", "request": forgot, "when": map[string]any{"kind": "visible", "target": map[string]any{"role": "button", "name": "Accept cookies"}}},
		// hidden holds when nothing matches: the read runs.
		map[string]any{"op": "read", "when": map[string]any{"kind": "hidden", "target": map[string]any{"role": "button", "name": "Accept cookies"}}},
		// The title matches a regex: the type runs.
		map[string]any{"op": "act", "request": map[string]any{"action": "type", "target": username, "text": "ada"},
			"when": map[string]any{"kind": "title", "value": map[string]any{"regex": "^sign", "flags": "i"}}},
		// The link's href is /about, not /nowhere: skipped.
		map[string]any{"op": "act", "request": forgot, "when": map[string]any{"kind": "attribute", "name": "href", "value": "/nowhere", "target": map[string]any{"role": "link", "name": "Forgot password?"}}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "value", "value": "ada", "target": username, "wait": "none"}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "url", "value": "/form", "wait": "none"}},
	)
	for i, want := range []string{StatusPassed, StatusSkipped, StatusPassed, StatusPassed, StatusSkipped, StatusPassed, StatusPassed} {
		if op := rep.Operations[i]; op.Status != want || op.Error != nil {
			t.Errorf("operations[%d] %s: status %s, skipReason %q, error %+v; want %s", i, op.Op, op.Status, op.SkipReason, op.Error, want)
		}
	}
	if rep.Status != StatusPassed {
		t.Fatalf("status %s, error %v", rep.Status, rep.Error)
	}
	// A value where the kind takes none is refused at load, at its path.
	data := `{"version":1,"id":"s","operations":[{"op":"read","when":{"kind":"visible","value":"x","target":{"role":"button","name":"A"}}}]}`
	var ve *ValidationError
	if _, err := Parse([]byte(data)); !errors.As(err, &ve) || ve.Path != "operations[0].when.value" {
		t.Fatalf("visible with a value: %v", err)
	}
}
