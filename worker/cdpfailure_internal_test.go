package worker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mafredri/cdp/rpcc"
)

// TestRefusalsNamedSafely: a refusal for a context, node, object or frame that went away is
// a document replaced under the call (whatever mafredri/cdp wrapped around it); any other
// refusal is named by its method and number only, never by the browser's text, which can
// echo what the call carried.
func TestRefusalsNamedSafely(t *testing.T) {
	wrap := func(method string, code int64, msg string) error {
		return fmt.Errorf("%s: %w", method, &rpcc.ResponseError{Code: code, Message: msg})
	}
	for _, c := range []struct {
		err    error
		gone   bool
		called string
	}{
		{wrap("cdp.Runtime: CallFunctionOn", -32000, "Execution context was destroyed."), true, " (Runtime.callFunctionOn, error -32000)"},
		{wrap("cdp.Runtime: Evaluate", -32000, "Cannot find context with specified id"), true, " (Runtime.evaluate, error -32000)"},
		{wrap("cdp.DOM: DescribeNode", -32000, "No node with given id found"), true, " (DOM.describeNode, error -32000)"},
		{wrap("cdp.DOM: GetBoxModel", -32000, "Could not compute box model."), true, " (DOM.getBoxModel, error -32000)"},
		{wrap("cdp.Input: InsertText", -32602, "Invalid parameters: text: hunter2"), false, " (Input.insertText, error -32602)"},
		{wrap("cdp.Page: Navigate", -32000, "Some other refusal"), false, " (Page.navigate, error -32000)"},
		{fmt.Errorf("not a cdp error"), false, ""},
	} {
		if got := documentGone(c.err); got != c.gone {
			t.Errorf("documentGone(%v) = %v, want %v", c.err, got, c.gone)
		}
		got := refusedCall(c.err)
		if got != c.called {
			t.Errorf("refusedCall(%v) = %q, want %q", c.err, got, c.called)
		}
		if strings.Contains(got, "hunter2") {
			t.Errorf("refusedCall echoed the browser's text: %q", got)
		}
	}
}
