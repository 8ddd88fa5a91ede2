package artifacts

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStoreModes: a store writes its root, session and run directories and its files in its
// Mode's modes whatever they were before (ModeGroup loosens a 0700 root to 0750, private
// tightens a 0755 one), and ParseMode knows exactly the two names.
func TestStoreModes(t *testing.T) {
	for _, c := range []struct {
		mode        Mode
		before      os.FileMode
		dirs, files os.FileMode
		name        string
	}{
		{ModePrivate, 0o755, 0o700, 0o600, "private"},
		{ModeGroup, 0o700, 0o750, 0o640, "group"},
		{Mode{}, 0o750, 0o700, 0o600, "private"},
	} {
		root := filepath.Join(t.TempDir(), "root")
		if err := os.Mkdir(root, c.before); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(root, c.before); err != nil {
			t.Fatal(err)
		}
		s, err := OpenMode(root, "sess", c.mode)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.Put("run1", "owner", "log", []byte("hello\n"), false)
		if err != nil {
			t.Fatal(err)
		}
		_ = s.Close()
		want := map[string]os.FileMode{root: c.dirs, filepath.Join(root, "sess"): c.dirs, filepath.Join(root, "sess", "run1"): c.dirs,
			filepath.Join(root, m.Path): c.files}
		for p, mode := range want {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("%s %s: %v, want %v", c.name, p, fi.Mode().Perm(), mode)
			}
		}
		if c.mode.String() != c.name {
			t.Errorf("String() = %q, want %q", c.mode.String(), c.name)
		}
	}
	for _, name := range []string{"private", "group"} {
		if m, err := ParseMode(name); err != nil || m.String() != name {
			t.Errorf("ParseMode(%q) = %v, %v", name, m, err)
		}
	}
	for _, bad := range []string{"", "world", "Group", "0640"} {
		if _, err := ParseMode(bad); err == nil {
			t.Errorf("ParseMode(%q) accepted", bad)
		}
	}
}
