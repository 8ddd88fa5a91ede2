package textclip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"ab", 0, "ab"[:0] + "…"},
		{"héé", 5, "héé"},        // 5 bytes: not cut
		{"héé", 4, "hé…"},        // the cut would split the second é
		{"héé", 2, "h…"},         // ... or the first
		{"日本語", 4, "日…"},         // 3-byte characters
		{"日本語", 2, "…"},          // not even one fits
		{"a日本語", 3, "a…"},        // 1 + 3 bytes: the 日 does not fit in 3
		{"\xffabc", 2, "\xffa…"}, // invalid bytes are left as they are, never grown
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	// ASCII output is what every call site wrote by hand before: s[:n] + "…".
	s := strings.Repeat("abcdefghij", 10)
	for _, n := range []int{12, 40, 64, 80} {
		if got := Clip(s, n); got != s[:n]+"…" {
			t.Errorf("Clip(ascii, %d) = %q", n, got)
		}
	}
	// Multi-byte text is never split, whatever the bound.
	text := strings.Repeat("é日a😀", 20)
	for n := 0; n <= len(text); n++ {
		got, cut := ClipBytes(text, n)
		if !utf8.ValidString(got) || len(got) > n || !strings.HasPrefix(text, got) || cut != (n < len(text)) {
			t.Fatalf("ClipBytes(text, %d) = %q, %v", n, got, cut)
		}
	}
}

func TestClipChars(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"héé", 3, "héé"}, // 5 bytes, 3 characters: not cut
		{"ééééé", 2, "éé…"},
		{"日本語テキスト", 3, "日本語…"},
	} {
		if got := ClipChars(c.in, c.n); got != c.want {
			t.Errorf("ClipChars(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
