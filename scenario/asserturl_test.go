package scenario

import (
	"context"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestAssertURLRelativeToBase: in a real run, an assert of kind url with value "/form"
// compares against fixture.baseUrl + "/form", as navigate's url does; a wrong relative
// value still fails, naming the resolved URL.
func TestAssertURLRelativeToBase(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	l := load(t, map[string]any{
		"version": 1, "id": "assert-url",
		"fixture": map[string]any{"baseUrl": site.URL},
		"operations": []any{
			map[string]any{"op": "navigate", "request": map[string]any{"url": "/form"}},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "url", "value": "/form", "wait": "none"}},
			map[string]any{"op": "assert", "request": map[string]any{"kind": "url", "value": "/about", "wait": "none"}},
		},
	})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Operations[1].Status != StatusPassed {
		t.Fatalf("assert url \"/form\" on %s/form: %+v", site.URL, rep.Operations[1].Error)
	}
	e := rep.Operations[2].Error
	if rep.Status != StatusFailed || e == nil || e.Code != transport.CodeAssertionFailed || !strings.Contains(e.Message, site.URL+"/about") {
		t.Fatalf("assert url \"/about\" on /form: status %s, %+v", rep.Status, e)
	}
}
