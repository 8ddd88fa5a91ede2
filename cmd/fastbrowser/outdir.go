package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// prepareOutDir makes --out DIR private before anything is written there: a missing
// directory is created 0700; an existing one must be a real directory (not a symlink, even
// to a directory) owned by this user, and is tightened to 0700. Anything else is refused
// (exit 2) rather than written through: report.json, report.html and artifacts/ hold page
// content.
func prepareOutDir(dir string) error {
	path := filepath.Clean(dir) // "link/" would make Lstat follow the link
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(path, 0o700); err != nil {
			return usageError("--out %s: cannot create the directory", dir)
		}
	}
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return usageError("--out %s: cannot inspect it", dir)
	case fi.Mode()&fs.ModeSymlink != 0:
		return usageError("--out %s: is a symlink; give the real directory", dir)
	case !fi.IsDir():
		return usageError("--out %s: exists and is not a directory", dir)
	}
	// Checked and tightened through one descriptor opened without following a link, so a
	// swap after the Lstat changes nothing but this refusal.
	d, err := os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return usageError("--out %s: cannot open it as a real directory", dir)
	}
	defer d.Close()
	dfi, err := d.Stat()
	if err != nil || !os.SameFile(fi, dfi) {
		return usageError("--out %s: changed while being checked", dir)
	}
	if st, ok := dfi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return usageError("--out %s: owned by uid %d, not by this user (%d)", dir, st.Uid, os.Geteuid())
	}
	if dfi.Mode().Perm() != 0o700 {
		if err := d.Chmod(0o700); err != nil {
			return usageError("--out %s: mode %s and cannot tighten it to 0700", dir, dfi.Mode().Perm())
		}
	}
	return nil
}
