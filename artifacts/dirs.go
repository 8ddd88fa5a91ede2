package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ensureDir creates path as a directory of mode m (0700 private) if it is missing, then
// verifies it. The parent is fsynced after a create so the new entry survives a crash.
func ensureDir(path string, m Mode) error {
	created := false
	if err := os.Mkdir(path, m.Dir()); err == nil {
		created = true
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("artifacts: cannot create directory %s: %w", path, err)
	}
	if err := verifyDir(path, m); err != nil {
		return err
	}
	if created {
		return syncDir(filepath.Dir(path))
	}
	return nil
}

// verifyDir refuses path unless it is a real directory (not a symlink) owned by this user,
// and sets its mode to m's (tightens it to 0700 when private). The Lstat check gives a clear
// refusal; re-opening with O_NOFOLLOW and comparing inodes catches a swap between the check
// and the chmod.
func verifyDir(path string, m Mode) error {
	dirPerm := m.Dir()
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("artifacts: cannot inspect directory %s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("artifacts: refused %s: %w, not a directory", path, ErrSymlink)
	}
	if !fi.IsDir() {
		return fmt.Errorf("artifacts: refused %s: %w (mode %s)", path, ErrNotDir, fi.Mode())
	}
	if fi.Mode().Perm() != dirPerm {
		// Chmod before opening: a directory made under a harsh umask (0000) cannot be opened.
		if err := os.Chmod(path, dirPerm); err != nil {
			return fmt.Errorf("artifacts: refused %s: mode %s and cannot set it to %#o: %w",
				path, fi.Mode().Perm(), dirPerm, err)
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
		return fmt.Errorf("artifacts: refused %s: %w", path, ErrChanged)
	}
	if dfi.Mode().Perm() != dirPerm {
		return fmt.Errorf("artifacts: refused %s: mode is %s, want %#o", path, dfi.Mode().Perm(), dirPerm)
	}
	if st, ok := dfi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("artifacts: refused %s: owned by uid %d: %w (%d)", path, st.Uid, ErrNotOwned, os.Geteuid())
	}
	return nil
}

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
