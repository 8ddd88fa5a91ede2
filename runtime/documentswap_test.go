package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestDocumentSwapsGetRealCodes: on a page that replaces its document as soon as it has run
// (/flip/0?ms=0), reads, observes and bounded assertions keep meeting contexts and nodes the
// browser has just thrown away. None of that is internal: a read that lost its document
// says stale_document (nothing attempted, safe to retry), and a bounded assertion reads the
// next document instead of failing on a refusal. Before, each such refusal was "internal: the browser
// refused a DevTools call" (14 in 200 operations of this kind; once in CI, an assertion right after
// a click that navigated).
func TestDocumentSwapsGetRealCodes(t *testing.T) {
	// Not parallel: a page that navigates without pause keeps a renderer busy for the whole
	// test, which starved the package's parallel tests of CPU.
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/flip/0?ms=0"}); err != nil {
		t.Fatal(err)
	}
	// From the first page on (it stays 200 ms), every page leaves as soon as it has run.
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTitle, Value: "Flip 0", Not: true}); err != nil {
		t.Fatal(err)
	}
	passed := 0
	for i := 0; i < 48; i++ {
		var err error
		var assert *transport.Assert
		switch {
		case i%12 == 11: // an observe takes ~2 s here: it retakes a look that spans two documents
			_, err = transport.Dispatch(bg, rt, transport.Observe{})
		case i%3 == 0:
			_, err = transport.Dispatch(bg, rt, transport.Read{})
		case i%3 == 1:
			assert = &transport.Assert{Kind: transport.AssertTextContains, Value: "of the flip"}
		default:
			assert = &transport.Assert{Kind: transport.AssertTitleContains, Value: "Flip"}
		}
		if assert != nil {
			if _, err = transport.Dispatch(bg, rt, *assert); err == nil {
				passed++
			}
		}
		if err == nil {
			continue
		}
		oe := transport.AsOperationError("", err)
		switch {
		case oe.Code == transport.CodeInternal:
			t.Errorf("%s: %v", oe.Operation, err)
		case oe.Code == transport.CodeStaleDocument && (oe.MutationState != transport.NotAttempted || oe.Retry != transport.RetrySafe):
			t.Errorf("%s: %v is %s/%s, want not_attempted/safe", oe.Operation, err, oe.MutationState, oe.Retry)
		}
	}
	// On a loaded machine every look of an assertion can land on a document still empty
	// (assertion_failed): that is an answer, not a refusal, so it is not asserted on.
	t.Logf("%d of 32 assertions held", passed)
}
