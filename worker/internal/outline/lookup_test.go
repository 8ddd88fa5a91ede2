package outline_test

import (
	"testing"

	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// TestLookupNearMiss: when nothing matches, Lookup names the element a person most likely
// meant, best first: the same name under another role, the same role with the name in
// another case, the same role with a name containing or inside the wanted one, another role
// with the name in another case. Actionable lookups suggest only actionable elements; any
// lookup (an assertion's) finds and suggests headings, regions and tables too.
func TestLookupNearMiss(t *testing.T) {
	frames := doc(
		n("heading", "Orders").level(1).be(1),
		n("link", "Sign in").be(2),
		n("button", "Save changes").be(3),
		n("button", "Log OUT").be(4),
		n("region", "Account", n("button", "Edit").be(6)).be(5),
	)
	near := func(m outline.Match) dom.BackendNodeID {
		if m.Near == nil {
			return 0
		}
		return m.Near.Backend
	}
	for _, c := range []struct {
		role, name string
		actionable bool
		found      int
		near       dom.BackendNodeID
	}{
		{"button", "Sign in", true, 0, 2},      // same name, another role
		{"button", "save changes", true, 0, 3}, // same role, another case
		{"button", "Save", true, 0, 3},         // same role, containing it
		{"button", "Log out", true, 0, 4},      // same role, another case
		{"link", "log out", true, 0, 4},        // another role, another case
		{"button", "Orders", true, 0, 0},       // a heading is no act target
		{"button", "Orders", false, 0, 1},      // but an assertion's near miss
		{"heading", "Orders", false, 1, 0},     // and found by an assertion
		{"region", "Account", false, 1, 0},
		{"region", "Account", true, 0, 0},
		{"button", "Nothing like it", true, 0, 0},
		{"button", "Edit", true, 1, 0}, // found: no near miss
	} {
		exact := func(got string) bool { return got == c.name }
		m := outline.Lookup(frames, c.role, exact, c.name, c.actionable, nil)
		if len(m.Found) != c.found || near(m) != c.near {
			t.Errorf("Lookup(%q, %q, actionable %v): found %d, near %v; want %d, %v", c.role, c.name, c.actionable, len(m.Found), near(m), c.found, c.near)
		}
	}
}

// TestLookupMatcher: Lookup takes any matcher of the folded name (nil: any name), as act's
// TextMatch gives it: a substring finds names holding it, whatever their case; with a near
// string a miss still names the element most likely meant, with none (a regex) it names
// nothing.
func TestLookupMatcher(t *testing.T) {
	frames := doc(
		n("button", "Save changes").be(1),
		n("button", "Save  draft").be(2),
		n("link", "Help").be(3),
	)
	save := transport.Match("save").Matcher(false)
	if m := outline.Lookup(frames, "button", save, "save", true, nil); len(m.Found) != 2 || m.Near != nil {
		t.Errorf("substring: found %d, near %v", len(m.Found), m.Near)
	}
	draft := transport.Match("Save draft").Matcher(true) // the name's white space is folded
	if m := outline.Lookup(frames, "button", draft, "Save draft", true, nil); len(m.Found) != 1 || m.Found[0].Backend != 2 {
		t.Errorf("exact over folded space: %+v", m.Found)
	}
	if m := outline.Lookup(frames, "button", nil, "", true, nil); len(m.Found) != 2 {
		t.Errorf("no name: found %d, want every button", len(m.Found))
	}
	re := transport.MatchRegex("^help$", "i").Matcher(false)
	if m := outline.Lookup(frames, "button", re, "", true, nil); len(m.Found) != 0 || m.Near != nil {
		t.Errorf("regex miss: found %d, near %v; want neither", len(m.Found), m.Near)
	}
	help := transport.Match("Help").Matcher(true)
	if m := outline.Lookup(frames, "button", help, "Help", true, nil); len(m.Found) != 0 || m.Near == nil || m.Near.Backend != 3 {
		t.Errorf("string miss: near %v, want the link", m.Near)
	}
}
