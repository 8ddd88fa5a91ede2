package outline

import (
	"os"
	"strings"
	"testing"
)

// TestTargetRolesDocumented: docs/protocol.md's "Roles" note under act names every role an
// act target can find and every alias Find applies, so the list cannot drift from the code.
func TestTargetRolesDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	start := strings.Index(doc, "- **Roles.**")
	if start < 0 {
		t.Fatal(`docs/protocol.md has no "- **Roles.**" note`)
	}
	note := doc[start:]
	note = strings.Join(strings.Fields(note[:strings.Index(note[1:], "\n- ")+1]), " ")
	want := map[string]bool{"password": true, "file": true}
	for r, k := range kinds {
		switch k {
		case kindField, kindLeaf, kindActionBox, kindSelect:
			want[outlineRole(r)] = true
		}
	}
	for r, aliases := range roleAliases {
		want[r] = true
		for _, a := range aliases {
			want[a] = true
		}
	}
	for r := range want {
		if !strings.Contains(note, "`"+r+"`") {
			t.Errorf("docs/protocol.md's Roles note does not name the role %q", r)
		}
	}
	for r, aliases := range roleAliases {
		for _, a := range aliases {
			said := []string{"`" + r + "` also finds `" + a + "`", "`" + r + "` and `" + a + "` are the same", "`" + a + "` and `" + r + "` are the same"}
			if !strings.Contains(note, said[0]) && !strings.Contains(note, said[1]) && !strings.Contains(note, said[2]) {
				t.Errorf("docs/protocol.md's Roles note does not say %s", said[0])
			}
		}
	}
}
