package secrets

import (
	"strings"
	"testing"
)

// TestScrubHead: the head of a text is returned with every secret that begins before the
// cut masked whole, one straddling the cut included, and nothing past the cut: not the
// start of a secret that a longer one's mask, shorter than it, would have pulled in.
func TestScrubHead(t *testing.T) {
	const short = "tok-9f8e7d"
	long := "LONG-" + strings.Repeat("q", 30)
	s := newSet(t, short, long)
	for _, c := range []struct {
		text string
		end  int
		want string
	}{
		{"xxxx" + short + "yyyy", 6, "xxxx[secret]"},       // straddles the cut
		{"xxxx" + short + "yyyy", 16, "xxxx[secret]yy"},    // before it
		{"xxxx" + short + "yyyy", 4, "xxxx"},               // begins at it
		{long + "ab" + short, len(long) + 2, "[secret]ab"}, // the long mask must not pull short in
		{"no secret here", 5, "no se"},
		{"ab" + short, 100, "ab[secret]"}, // past the end: all of it, scrubbed
	} {
		if got := s.ScrubHead(c.text, c.end); got != c.want {
			t.Errorf("ScrubHead(%q, %d) = %q, want %q", c.text, c.end, got, c.want)
		}
	}
	// A text of megabytes: only the head (and a secret's length past it) is looked at.
	big := "xx" + short + strings.Repeat("z", 4<<20)
	if got := s.ScrubHead(big, 5); got != "xx[secret]" {
		t.Errorf("big: %q", got)
	}
}
