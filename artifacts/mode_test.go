package artifacts

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestStoreModes: a store creates its root, session and run directories and its files in its
// Mode's modes, in an existing root too, which it never chmods: one that gives at least the
// Mode's (a 0755 one) is used as it is, one that does not is refused (ModeGroup does not open a
// 0700 root to its group). ParseMode knows exactly the two names.
func TestStoreModes(t *testing.T) {
	for _, c := range []struct {
		mode        Mode
		other       os.FileMode // an existing root of this mode is refused
		dirs, files os.FileMode
		name        string
	}{
		{ModePrivate, 0o500, 0o700, 0o600, "private"},
		{ModeGroup, 0o700, 0o750, 0o640, "group"},
		{Mode{}, 0o600, 0o700, 0o600, "private"},
	} {
		for _, existing := range []os.FileMode{0, c.dirs, 0o755} {
			root := filepath.Join(t.TempDir(), "root")
			if existing != 0 {
				mkdirMode(t, root, existing)
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
			rootMode := c.dirs
			if existing != 0 {
				rootMode = existing // as it was
			}
			want := map[string]os.FileMode{root: rootMode, filepath.Join(root, "sess"): c.dirs, filepath.Join(root, "sess", "run1"): c.dirs,
				filepath.Join(root, m.Path): c.files}
			for p, mode := range want {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != mode {
					t.Errorf("%s (existing root %o) %s: %v, want %v", c.name, existing, p, fi.Mode().Perm(), mode)
				}
			}
		}
		root := filepath.Join(t.TempDir(), "root")
		mkdirMode(t, root, c.other)
		if _, err := OpenMode(root, "sess", c.mode); !errors.Is(err, ErrMode) {
			t.Errorf("%s: a %o root opened: %v, want ErrMode", c.name, c.other, err)
		}
		if fi, err := os.Stat(root); err != nil || fi.Mode().Perm() != c.other {
			t.Errorf("%s: the refused root's mode changed: %v %v, want %o", c.name, fi.Mode(), err, c.other)
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

// mkdirMode makes dir with exactly mode, whatever the umask.
func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}
