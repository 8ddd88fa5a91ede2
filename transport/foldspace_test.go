package transport_test

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestFoldSpaceDropsZeroWidth: zero-width characters go, white space folds, and a name
// written with or without them matches the other both exactly and as a substring.
func TestFoldSpaceDropsZeroWidth(t *testing.T) {
	for in, want := range map[string]string{
		"get \u200b/pet\u200b/{petId}":          "get /pet/{petId}",
		" \ufeffWord\u2060joined \u200c\u200d ": "Wordjoined",
		"Save\u200b  draft":                     "Save draft",
		"plain text":                            "plain text",
	} {
		if got := transport.FoldSpace(in); got != want {
			t.Errorf("FoldSpace(%q) = %q, want %q", in, got, want)
		}
	}
	page := transport.FoldSpace("Save\u200b draft")
	for _, exact := range []bool{true, false} {
		if !transport.Match("Save\u200b draft").Matcher(exact)(page) || !transport.Match("Save draft").Matcher(exact)(page) {
			t.Errorf("exact=%v: a name with or without zero-width characters did not match", exact)
		}
	}
}
