package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestObserveWhileASubmitCommits: an observe right after a click that submits a form (the
// POST navigation commits while the observe reads) answers; it failed internal ("Could not
// find node with given id") when the document was replaced under it, before observe looked
// again on such an answer.
func TestObserveWhileASubmitCommits(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t, site.URL)
	for i := 0; i < 10; i++ {
		if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"}); err != nil {
			t.Fatal(err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Act{Action: "type", Target: transport.Target{Role: "textbox", Name: transport.Match("Username")}, Text: transport.Literal("bob")}); err != nil {
			t.Fatal(err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Act{Action: "click", Target: transport.Target{Role: "button", Name: transport.Match("Sign in")}}); err != nil {
			t.Fatal(err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Observe{MaxNodes: 400}); err != nil {
			t.Fatalf("observe %d: %v", i, err)
		}
		if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "Welcome"}); err != nil {
			t.Fatalf("assert %d: %v", i, err)
		}
	}
}
