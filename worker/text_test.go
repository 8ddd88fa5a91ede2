package worker

import "testing"

func TestClipRunes(t *testing.T) {
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
		if got := clipRunes(c.in, c.n); got != c.want {
			t.Errorf("clipRunes(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
