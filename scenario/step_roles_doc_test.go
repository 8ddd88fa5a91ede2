package scenario

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestStepRolesDocumented: docs/scenarios.md's table of the roles a step's matcher tries for
// each action is exactly transport.RolesFor, so the doc cannot drift from the matcher.
func TestStepRolesDocumented(t *testing.T) {
	raw, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string][]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 4 {
			continue
		}
		action := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if _, ok := transport.RolesFor[action]; !ok {
			continue
		}
		for _, r := range strings.Split(cells[2], ",") {
			documented[action] = append(documented[action], strings.Trim(strings.TrimSpace(r), "`"))
		}
	}
	for action, roles := range transport.RolesFor {
		if !slices.Equal(documented[action], roles) {
			t.Errorf("docs/scenarios.md lists %v for a step's %s; the matcher tries %v", documented[action], action, roles)
		}
	}
}
