package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestWaitInAFile: a scenario file's waits validate and run: a relative url resolves against
// fixture.baseUrl and waits for the navigation a click started without waiting; a load state
// runs under a when that holds and is skipped under one that does not; a url that never
// comes fails the operation with code timeout.
func TestWaitInAFile(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "waits",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/wait-states"}},
			map[string]any{"op": "act", "request": map[string]any{"action": "click", "target": map[string]any{"role": "link", "name": "Again"}, "noWaitAfter": true}},
			map[string]any{"op": "wait", "request": map[string]any{"url": "/wait-states?run=2"}},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "Loaded", "wait": "none"}},
			map[string]any{"op": "wait", "request": map[string]any{"loadState": "networkidle"}, "when": map[string]any{"kind": "title", "value": "Loaded"}},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "textContains", "value": "Fetched after load", "wait": "none"}},
			map[string]any{"op": "wait", "request": map[string]any{"durationMs": 100000}, "when": map[string]any{"kind": "title", "value": "Elsewhere"}},
			map[string]any{"op": "wait", "request": map[string]any{"url": "**/never", "timeoutMs": 500}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	want := []string{StatusPassed, StatusPassed, StatusPassed, StatusPassed, StatusPassed, StatusPassed, StatusSkipped, StatusFailed}
	for i, w := range want {
		if got := rep.Operations[i].Status; got != w {
			t.Fatalf("operations[%d] (%s): %s, want %s: %+v", i, rep.Operations[i].Op, got, w, rep.Operations[i].Error)
		}
	}
	e := rep.Operations[7].Error
	if rep.Status != StatusFailed || e == nil || e.Code != transport.CodeTimeout || !strings.Contains(e.Message, `"**/never"`) {
		t.Fatalf("the wait for **/never: status %s, %+v", rep.Status, e)
	}
}

// TestWaitInAFileRefused: a wait that names two things (or a relative URL without a base) is
// refused at load, with the field's path.
func TestWaitInAFileRefused(t *testing.T) {
	cases := []struct {
		name, path string
		doc        map[string]any
	}{
		{"two at once", "operations[0].request.url", map[string]any{"version": 1, "id": "w", "fixture": map[string]any{"baseUrl": "http://127.0.0.1:4310"},
			"operations": []any{map[string]any{"op": "wait", "request": map[string]any{"loadState": "load", "url": "**/x"}}}}},
		{"nothing", "operations[0].request", map[string]any{"version": 1, "id": "w",
			"operations": []any{map[string]any{"op": "wait", "request": map[string]any{}}}}},
		{"relative without a base", "operations[0].request.url", map[string]any{"version": 1, "id": "w", "allowedOrigins": []any{"*"},
			"operations": []any{map[string]any{"op": "wait", "request": map[string]any{"url": "/orders"}}}}},
	}
	for _, c := range cases {
		data, _ := json.Marshal(c.doc)
		_, err := Parse(data)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Path != c.path {
			t.Errorf("%s: %v, want a refusal at %s", c.name, err, c.path)
		}
	}
}
