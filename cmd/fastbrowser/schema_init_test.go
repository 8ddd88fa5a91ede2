package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// TestSchemaInitWritesTheSchemaOnce: `schema --init` (run as the binary, in a suite
// directory) writes ./scenario.schema.json, 0644 as a committed file, and prints the
// "$schema" line; run again it leaves the same bytes alone; a different file is refused
// without --force and replaced with it; `run DIR` and `validate DIR` skip the schema file.
func TestSchemaInitWritesTheSchemaOnce(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "schema", "--init")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"$schema": "./scenario.schema.json",`) {
		t.Fatalf("schema --init: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "scenario.schema.json")
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, scenario.SchemaJSON) {
		t.Fatalf("written schema differs (%v)", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if res := runCLI(t, nil, "schema", "--init", path); res.code != 0 || !strings.Contains(res.stdout, "already this build's scenario schema") {
		t.Errorf("same file again: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// A scenario beside the schema, naming it, validates; the directory's schema file is not
	// taken for a scenario.
	writeScenario(t, dir, "a.json", `{"$schema": "./scenario.schema.json", "version": 1, "id": "a", "operations": [{"op": "read"}]}`)
	if res := runCLI(t, nil, "validate", dir); res.code != 0 {
		t.Errorf("validate DIR: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if err := os.WriteFile(path, []byte(`{"mine": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, nil, "schema", "--init", path)
	if res.code != 2 || !strings.Contains(res.stderr, "differs from this build's scenario schema: give --force") {
		t.Fatalf("different file: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"mine": true}` {
		t.Fatalf("the refused file was changed: %s", got)
	}
	if res := runCLI(t, nil, "schema", "--init", "--force", path); res.code != 0 {
		t.Fatalf("--force: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, scenario.SchemaJSON) {
		t.Fatal("--force did not replace the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}
