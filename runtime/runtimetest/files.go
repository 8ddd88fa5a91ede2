package runtimetest

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFiles writes name → content under dir, creating subdirectories (0755, files 0644), for
// tests that need a tree of scenario, fragment and config files.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
