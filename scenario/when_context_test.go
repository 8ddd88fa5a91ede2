package scenario

import (
	"context"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestWhenSkippedNarrowingIsNoContext: an operation that runs in the context of a
// narrowOriginPolicy whose when did not hold does not run under the wider policy instead: the
// narrowing it names was never made, so it fails (here a navigate the narrowing would refuse
// must not pass).
func TestWhenSkippedNarrowingIsNoContext(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{"version": 1, "id": "when-context", "fixture": map[string]any{"baseUrl": site.URL},
		"allowedOrigins": []string{site.URL, "http://other.test"},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/form"}},
			map[string]any{"id": "narrow", "op": "narrowOriginPolicy", "request": map[string]any{"origins": []string{"http://other.test"}},
				"when": map[string]any{"kind": "title", "value": "Not this page"}},
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}, "context": map[string]any{"operation": map[string]any{"id": "narrow"}}},
		}})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if op := rep.Operations[1]; op.Status != StatusSkipped {
		t.Fatalf("the narrowing: status %s, want skipped (its when does not hold)", op.Status)
	}
	if op := rep.Operations[2]; op.Status == StatusPassed {
		t.Errorf("the navigate in the skipped narrowing's context passed: it ran under the wider policy")
	} else if op.Error == nil || op.Error.Code != transport.CodeInvalidRequest || op.Error.Path != "context.operation" {
		t.Errorf("the navigate in the skipped narrowing's context: status %s, error %+v; want invalid_request at context.operation", op.Status, op.Error)
	}
}
