package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArtifactStoreRefusalNamesCause: DIR/artifacts planted as a symlink is refused, and the
// scenario's error says why ("symlink refused") instead of a bare internal error; nothing is
// written through the link.
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
	if err := os.Symlink(target, filepath.Join(out, "artifacts")); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, nil, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	e := r.Scenarios[0].Error
	if e == nil || e.Code != "internal" || !strings.HasSuffix(e.Message, "cannot be opened: symlink refused") {
		t.Fatalf("scenario error %+v, want internal naming the symlink", e)
	}
	if ents, _ := os.ReadDir(target); len(ents) != 0 {
		t.Errorf("written through the symlink: %v", ents)
	}
}
