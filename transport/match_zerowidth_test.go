package transport

import "testing"

// TestMatchElementDropsZeroWidth: the containment rule compares names as every other
// comparison does, without zero-width characters (a page's "Log\u200bin" is "Login"), and
// still splits words at punctuation and white space.
func TestMatchElementDropsZeroWidth(t *testing.T) {
	nodes := []OutlineNode{
		{Ref: "e1", Role: "button", Name: "Log\u200bin now"},
		{Ref: "e2", Role: "button", Name: "Sign-up"},
	}
	if n, rule, err := MatchElement(nodes, "login", ActClick, "step"); err != nil || n.Ref != "e1" || rule != "containment" {
		t.Errorf("login: %v %q %v; want e1 by containment", n.Ref, rule, err)
	}
	if n, _, err := MatchElement(nodes, "sign up", ActClick, "step"); err != nil || n.Ref != "e2" {
		t.Errorf("sign up: %v %v; want e2 (punctuation still splits words)", n.Ref, err)
	}
	for in, want := range map[string]string{"Log\u200bin": "login", "a\ufeff b": "a b", "get \u200b/pet\u200b/{petId}": "get pet petid"} {
		if got := normalise(in); got != want {
			t.Errorf("normalise(%q) = %q, want %q", in, got, want)
		}
	}
}
