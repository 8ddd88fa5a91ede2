package secrets

import (
	"slices"
	"strings"
	"testing"
)

// naiveFind is what find computed before forms were grouped: every occurrence of every form,
// merged.
func naiveFind(t *table, text string) []span {
	var hits []span
	for _, f := range t.forms {
		for from := 0; from+len(f) <= len(text); {
			i := strings.Index(text[from:], f)
			if i < 0 {
				break
			}
			hits = append(hits, span{from + i, from + i + len(f)})
			from += i + 1
		}
	}
	return merge(hits)
}

// naivePartialStart is the Writer's hold point before forms were grouped.
func naivePartialStart(t *table, text string) int {
	for p := max(0, len(text)-t.maxLen+1); p < len(text); p++ {
		for _, f := range t.forms {
			if len(f) > len(text)-p && strings.HasPrefix(f, text[p:]) {
				return p
			}
		}
	}
	return len(text)
}

// FuzzFindMatchesNaive: searching by group finds exactly the spans a search for each form
// finds, and the Writer holds back from the same place, whatever the text; the secrets share
// prefixes so that groups hold several values' forms.
func FuzzFindMatchesNaive(f *testing.F) {
	f.Add("x p@ss w0rd/<&>\"'é abab y")
	f.Add("p@ss w0rd/<&>\"'é" + "p@ss")
	f.Add("7040737320773072642f3c263e2227c3a9 abababab p@ssword")
	f.Add("\\u0070\\u0040\\u0073 p\x00@\x00s\x00 abab")
	s := newSet(f, secret, "p@ssword", "abab", "p@ss w0rd-two")
	tab := s.snapshot()
	if len(tab.groups) >= len(tab.forms) {
		f.Fatalf("%d groups for %d forms: nothing shares a search", len(tab.groups), len(tab.forms))
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := tab.find(text), naiveFind(tab, text); !slices.Equal(got, want) {
			t.Fatalf("find(%q) = %v, want %v", text, got, want)
		}
		for cut := 0; cut <= len(text); cut++ {
			if got, want := tab.partialStart(text[:cut]), naivePartialStart(tab, text[:cut]); got != want {
				t.Fatalf("partialStart(%q) = %d, want %d", text[:cut], got, want)
			}
		}
	})
}
