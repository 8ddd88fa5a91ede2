package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// The rule for every directory the store, `run --out` and `serve --artifacts` use: a
// directory created here is made with the Mode's directory mode (set explicitly: the umask may
// have taken bits). A directory that already exists was not created here, and its mode is
// never changed: chmodding it would take it from whoever shares it (`--out /tmp` as root
// would lock every other user out of /tmp). It is used only if it is a real directory (not a
// symlink) owned by this user that nobody else can write in (no group or other write bit, not
// sticky) and whose mode gives at least the Mode's directory mode (rwx to the owner; r-x to the
// group as well under ModeGroup, which writes for the group). Read bits beyond that (a
// `mkdir`'s 0755) are left as they are: everything written inside has the store's modes
// (files 0600 or 0640, directories created 0700 or 0750), so what is in it stays private.
// Anything else is refused with a *DirError saying why.

// DirError is the refusal of a directory: which one, its mode when it was looked at, the
// mode it must give at least (Want: the Mode's directory mode), and why, one of ErrSymlink, ErrNotDir, ErrShared, ErrNotOwned,
// ErrMode or ErrChanged (errors.Is reaches it).
type DirError struct {
	Path       string
	Mode, Want fs.FileMode
	UID        int // the owner's uid, for ErrNotOwned
	Err        error
}

func (e *DirError) Error() string {
	switch e.Err {
	case ErrNotOwned:
		return fmt.Sprintf("artifacts: refused %s: owned by uid %d: %v (%d)", e.Path, e.UID, e.Err, os.Geteuid())
	case ErrShared, ErrMode:
		return fmt.Sprintf("artifacts: refused %s: mode %s: %v (wanted at least %#o, nothing writable by others)", e.Path, e.Mode, e.Err, e.Want)
	}
	return fmt.Sprintf("artifacts: refused %s: %v", e.Path, e.Err)
}

func (e *DirError) Unwrap() error { return e.Err }

// PrepareDir makes path a directory of m's mode under the rule above: a missing one is created
// (its missing parents too, which are not policed: only path is ours to promise), an existing
// one is checked and never chmodded. run's --out and the store's root both come here.
func PrepareDir(path string, m Mode) error {
	path = filepath.Clean(path) // "link/" would make Lstat and O_NOFOLLOW follow the link
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(path), m.Dir()); err != nil {
			return fmt.Errorf("artifacts: cannot create directory %s: %w", filepath.Dir(path), err)
		}
	}
	return ensureDir(path, m)
}

// ensureDir creates path as a directory of mode m if it is missing, then verifies it. Only a
// directory this call created is given m's mode; one that already existed is only checked. The
// parent is fsynced after a create so the new entry survives a crash.
func ensureDir(path string, m Mode) error {
	err := os.Mkdir(path, m.Dir())
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("artifacts: cannot create directory %s: %w", path, err)
	}
	created := err == nil // EEXIST: not made by this call, so never chmodded
	if created {
		if err := setCreatedMode(path, m); err != nil {
			return err
		}
	}
	if err := verifyDir(path, m); err != nil {
		return err
	}
	if created {
		return syncDir(filepath.Dir(path))
	}
	return nil
}

// setCreatedMode gives a directory ensureDir just made exactly m's mode, which the umask may
// have narrowed (a setgid bit inherited from the parent is kept). Chmod by path, before any
// open: a directory made under umask 0777 (mode 0000) cannot be opened. The Lstat first
// refuses anything that is no longer a real directory; verifyDir then checks the rest.
func setCreatedMode(path string, m Mode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("artifacts: cannot inspect directory %s: %w", path, err)
	}
	if err := realDir(path, fi); err != nil {
		return err
	}
	if fi.Mode().Perm() == m.Dir() {
		return nil
	}
	if err := os.Chmod(path, m.Dir()|fi.Mode()&fs.ModeSetgid); err != nil {
		return fmt.Errorf("artifacts: cannot set the mode of directory %s to %#o: %w", path, m.Dir(), err)
	}
	return nil
}

// verifyDir refuses path unless it is a real directory owned by this user, writable by
// nobody else, whose mode gives at least m's (see the rule above); it never changes the mode.
func verifyDir(path string, m Mode) error { return checkDir(path, &m) }

// checkDir refuses path unless it is a real directory (not a symlink) owned by this user
// and, with m, of a mode checkMode accepts. sweep passes no m: it only removes files. The Lstat
// checks give a clear refusal; re-opening with O_NOFOLLOW and comparing inodes catches a swap
// between the check and the use.
func checkDir(path string, m *Mode) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("artifacts: cannot inspect directory %s: %w", path, err)
	}
	if err := realDir(path, fi); err != nil {
		return err
	}
	var want fs.FileMode
	if m != nil {
		want = m.Dir()
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		// Shared before foreign: /tmp is both, and "shared" says what to do instead.
		if m != nil && shared(fi.Mode()) {
			return &DirError{Path: path, Mode: fi.Mode(), Want: want, Err: ErrShared}
		}
		return &DirError{Path: path, Mode: fi.Mode(), Want: want, UID: int(st.Uid), Err: ErrNotOwned}
	}
	if m != nil {
		// Before the open: a directory of mode 0000 is refused for its mode, not as unopenable.
		if err := checkMode(path, fi, want); err != nil {
			return err
		}
	}
	d, err := openDir(path)
	if err != nil {
		return err
	}
	defer d.Close()
	dfi, err := d.Stat()
	if err != nil {
		return fmt.Errorf("artifacts: cannot inspect directory %s: %w", path, err)
	}
	if !os.SameFile(fi, dfi) {
		return &DirError{Path: path, Mode: fi.Mode(), Want: want, Err: ErrChanged}
	}
	return nil
}

// realDir refuses what Lstat saw unless it is a directory, not a symlink to one.
func realDir(path string, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &DirError{Path: path, Mode: fi.Mode(), Err: ErrSymlink}
	}
	if !fi.IsDir() {
		return &DirError{Path: path, Mode: fi.Mode(), Err: ErrNotDir}
	}
	return nil
}

// checkMode refuses a directory writable by others or sticky (one many users write in:
// ErrShared), or whose permissions lack some of want (ErrMode: the owner, or under ModeGroup
// the group, could not reach what is written).
func checkMode(path string, fi fs.FileInfo, want fs.FileMode) error {
	if shared(fi.Mode()) {
		return &DirError{Path: path, Mode: fi.Mode(), Want: want, Err: ErrShared}
	}
	if fi.Mode().Perm()&want != want {
		return &DirError{Path: path, Mode: fi.Mode(), Want: want, Err: ErrMode}
	}
	return nil
}

// shared: group- or world-writable, or sticky (the mark of a directory many users write in).
func shared(mode fs.FileMode) bool { return mode.Perm()&0o022 != 0 || mode&fs.ModeSticky != 0 }

// openDir opens a directory without following a symlink at its last component.
func openDir(path string) (*os.File, error) {
	d, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, fmt.Errorf("artifacts: refused %s: cannot open it as a real directory: %w", path, err)
	}
	return d, nil
}

// syncDir fsyncs a directory so entries created, linked or removed in it are durable.
func syncDir(path string) error {
	d, err := openDir(path)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		return fmt.Errorf("artifacts: cannot sync directory %s: %w", path, serr)
	}
	if cerr != nil {
		return fmt.Errorf("artifacts: cannot close directory %s: %w", path, cerr)
	}
	return nil
}
