package runtime_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestReadKeepsVisibleSpaces: read separates text runs as a person sees them (issue 11
// item 6): inline elements rendered apart get one space, blocks a new line, and a word split
// by inline markup stays whole. The hidden span and the field's value stay out.
func TestReadKeepsVisibleSpaces(t *testing.T) {
	t.Parallel()
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(t)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/read-spacing"}); err != nil {
		t.Fatal(err)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if rd.Text != fixture.ReadSpacingText || rd.Truncated {
		t.Errorf("read text (truncated=%v):\n%s\nwant:\n%s", rd.Truncated, rd.Text, fixture.ReadSpacingText)
	}
	// assert textContains sees the same spaces.
	res, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Log out Signed in as alice", Wait: transport.WaitNone})
	if err != nil || !res.Passed {
		t.Errorf("assert textContains across the inline boundary: %+v %v", res, err)
	}
}
