package artifacts

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestPrepareDirNeverChmods: PrepareDir accepts an existing directory only as a real
// directory of this user that nobody else can write in, whose mode gives at least the Mode's
// (a mkdir's 0755 does for private, 0700 does not for group), and refuses everything else with
// the DirError naming why; accepted or refused, the directory's mode stays exactly as it was.
func TestPrepareDirNeverChmods(t *testing.T) {
	base := t.TempDir()
	dir := func(name string, mode fs.FileMode) string {
		p := filepath.Join(base, name)
		mkdirMode(t, p, mode)
		return p
	}
	real := dir("real", 0o700)
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	type dirCase struct {
		name   string
		path   string
		mode   Mode
		want   error // nil: accepted
		phrase string
	}
	cases := []dirCase{
		{"ours 0700", dir("ours", 0o700), ModePrivate, nil, ""},
		{"ours 0755 (mkdir's)", dir("mkdir", 0o755), ModePrivate, nil, ""},
		{"ours 0750, group", dir("ours-group", 0o750), ModeGroup, nil, ""},
		{"ours 0755, group", dir("mkdir-group", 0o755), ModeGroup, nil, ""},
		{"ours 0500", dir("read-only", 0o500), ModePrivate, ErrMode, "its mode keeps out who the store writes for"},
		{"ours 0700, group", dir("private-for-group", 0o700), ModeGroup, ErrMode, "its mode keeps out who the store writes for"},
		{"ours 0740, group", dir("no-group-x", 0o740), ModeGroup, ErrMode, "its mode keeps out who the store writes for"},
		{"1777 like /tmp", dir("tmp", 0o777|fs.ModeSticky), ModePrivate, ErrShared, "a shared directory (writable by others or sticky)"},
		{"0770", dir("team", 0o770), ModeGroup, ErrShared, "a shared directory (writable by others or sticky)"},
		{"sticky 0700", dir("sticky", 0o700|fs.ModeSticky), ModePrivate, ErrShared, "a shared directory (writable by others or sticky)"},
		{"symlink to ours", link, ModePrivate, ErrSymlink, "symlink refused"},
		{"symlink/ to ours", link + "/", ModePrivate, ErrSymlink, "symlink refused"},
		{"a file", file, ModePrivate, ErrNotDir, "not a directory"},
	}
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := dir("foreign", 0o700)
		shared := dir("foreign-shared", 0o777|fs.ModeSticky)
		for _, d := range []string{foreign, shared} {
			if err := os.Chown(d, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
		cases = append(cases,
			dirCase{"another user's", foreign, ModePrivate, ErrNotOwned, "not owned by this user"},
			dirCase{"another user's 1777", shared, ModePrivate, ErrShared, "a shared directory (writable by others or sticky)"})
	}
	for _, c := range cases {
		before, err := os.Lstat(filepath.Clean(c.path))
		if err != nil {
			t.Fatal(err)
		}
		err = PrepareDir(c.path, c.mode)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		case c.want != nil:
			var de *DirError
			if !errors.As(err, &de) || de.Path != filepath.Clean(c.path) {
				t.Errorf("%s: %#v, want a *DirError naming %s", c.name, err, c.path)
			}
			if got := Cause(err); got != c.phrase {
				t.Errorf("%s: Cause %q, want %q", c.name, got, c.phrase)
			}
		}
		after, err := os.Lstat(filepath.Clean(c.path))
		if err != nil {
			t.Fatal(err)
		}
		if after.Mode() != before.Mode() {
			t.Errorf("%s: mode %v became %v", c.name, before.Mode(), after.Mode())
		}
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o700 {
		t.Errorf("the symlink's target became %v", fi.Mode())
	}
}

// TestPrepareDirCreates: a missing directory is created in the Mode's mode with its missing
// parents, inside a shared (1777) directory too, whose own mode stays 1777; a setgid bit the
// new directory inherits from its parent is kept, and the directory is then accepted.
func TestPrepareDirCreates(t *testing.T) {
	base := t.TempDir()
	shared := filepath.Join(base, "shared")
	mkdirMode(t, shared, 0o777|fs.ModeSticky)
	for _, c := range []struct {
		path string
		mode Mode
	}{
		{filepath.Join(shared, "results"), ModePrivate},
		{filepath.Join(shared, "a", "b", "results"), ModeGroup},
	} {
		if err := PrepareDir(c.path, c.mode); err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if p := perm(t, c.path); p != c.mode.Dir() {
			t.Errorf("%s: mode %o, want %o", c.path, p, c.mode.Dir())
		}
		if err := PrepareDir(c.path, c.mode); err != nil { // what it made, it accepts
			t.Errorf("%s again: %v", c.path, err)
		}
	}
	if fi, _ := os.Lstat(shared); fi.Mode() != fs.ModeDir|fs.ModeSticky|0o777 {
		t.Errorf("the shared parent became %v", fi.Mode())
	}
	setgid := filepath.Join(base, "setgid")
	mkdirMode(t, setgid, 0o700|fs.ModeSetgid)
	child := filepath.Join(setgid, "results")
	if err := PrepareDir(child, ModeGroup); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(child); fi.Mode() != fs.ModeDir|fs.ModeSetgid|0o750 {
		t.Errorf("created in a setgid parent: %v, want dgrwxr-x--- (setgid kept)", fi.Mode())
	}
}
