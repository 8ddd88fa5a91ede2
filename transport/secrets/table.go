package secrets

import (
	"slices"
	"strings"
)

// headLen is how many leading bytes group forms: every form is at least this long.
const headLen = minFormLen

// table is one snapshot of the registered forms. Scrub runs on every output, so it does not
// search for each form: forms that begin with the same headLen bytes (a value's raw, JSON,
// HTML and quoted spellings mostly do) share one search for their common prefix, and each
// place it occurs is checked against the group's forms.
type table struct {
	forms  []string // longest first, then lexical
	groups []group
	byHead map[string]*group // a group by its forms' first headLen bytes
	maxLen int               // length in bytes of the longest form; 0 when there is none
}

// group is the forms sharing their first headLen bytes.
type group struct {
	key   string   // the forms' longest common prefix: at least headLen bytes
	forms []string // longest first
}

func buildTable(set map[string]struct{}) *table {
	forms := make([]string, 0, len(set))
	for f := range set {
		forms = append(forms, f)
	}
	// Longest first, then lexical, so the order (and so any tie-break) is deterministic.
	slices.SortFunc(forms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	t := &table{forms: forms, byHead: map[string]*group{}}
	if len(forms) > 0 {
		t.maxLen = len(forms[0])
	}
	index := map[string]int{}
	for _, f := range forms {
		i, ok := index[f[:headLen]]
		if !ok {
			i = len(t.groups)
			index[f[:headLen]] = i
			t.groups = append(t.groups, group{key: f})
		}
		g := &t.groups[i]
		g.key = commonPrefix(g.key, f)
		g.forms = append(g.forms, f)
	}
	for i := range t.groups {
		t.byHead[t.groups[i].key[:headLen]] = &t.groups[i]
	}
	return t
}

func commonPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// find returns the merged spans of every occurrence of every form in text, in order.
// Occurrences may overlap each other ("aaaa" in "aaaaa"), so the search resumes one byte
// after each hit, not after its end. Where several forms of a group begin at one place only
// the longest is kept: the others lie inside it.
func (t *table) find(text string) []span {
	if len(text) == 0 || len(t.forms) == 0 {
		return nil
	}
	var hits []span
	for _, g := range t.groups {
		for from := 0; from+len(g.key) <= len(text); {
			i := strings.Index(text[from:], g.key)
			if i < 0 {
				break
			}
			at := from + i
			for _, f := range g.forms {
				if strings.HasPrefix(text[at:], f) {
					hits = append(hits, span{at, at + len(f)})
					break
				}
			}
			from = at + 1
		}
	}
	return merge(hits)
}

// couldStart reports whether tail is a proper prefix of some form: a secret the next write
// may complete (Writer).
func (t *table) couldStart(tail string) bool {
	if len(tail) < headLen {
		// Shorter than every group's key, which begins each of its forms.
		for i := range t.groups {
			if strings.HasPrefix(t.groups[i].key, tail) {
				return true
			}
		}
		return false
	}
	g := t.byHead[tail[:headLen]]
	if g == nil {
		return false
	}
	for _, f := range g.forms { // longest first: stop at the first too short to extend tail
		if len(f) <= len(tail) {
			break
		}
		if strings.HasPrefix(f, tail) {
			return true
		}
	}
	return false
}
