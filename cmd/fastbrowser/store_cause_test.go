package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArtifactStoreRefusalNamesCause: DIR/artifacts planted as a symlink is refused before
// anything runs, with exit 2 and a message naming it (invalid_request with --json), not as
// every scenario's internal error; nothing is written through the link.
func TestArtifactStoreRefusalNamesCause(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "ok.json", `{"version":1,"id":"ok","fixture":{"baseUrl":"http://127.0.0.1:9"},
  "operations":[{"op":"read"}]}`)
	out, target := filepath.Join(dir, "out"), filepath.Join(dir, "elsewhere")
	for _, d := range []string{out, target} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	store := filepath.Join(out, "artifacts")
	if err := os.Symlink(target, store); err != nil {
		t.Fatal(err)
	}
	want := "--out " + out + ": " + store + " is a symlink"
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 2 || !strings.Contains(res.stderr, want) {
		t.Fatalf("exit %d, want 2 and %q\n%s%s", res.code, want, res.stdout, res.stderr)
	}
	res = runCLI(t, nil, "run", "--json", "--out", out, f)
	var sum struct {
		Status string
		Errors []struct{ Code, Message string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil || res.code != 2 || len(sum.Errors) != 1 ||
		sum.Errors[0].Code != "invalid_request" || !strings.HasPrefix(sum.Errors[0].Message, want) {
		t.Fatalf("--json: exit %d, %+v (%v), want one invalid_request naming %s\n%s", res.code, sum, err, store, res.stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); !os.IsNotExist(err) {
		t.Errorf("a report was written, so something ran: %v", err)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the symlink: %v", ents)
	}
}
