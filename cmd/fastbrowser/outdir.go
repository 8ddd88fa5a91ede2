package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/fastbrowser/fastbrowser/artifacts"
)

// prepareOutDir makes --out DIR private (mode's directory mode: 0700, or 0750 with
// --artifacts-mode group) before anything is written there: a missing directory is created
// so; an existing one must be a real directory (not a symlink, even to a directory) owned by
// this user, and is set to that mode. Anything else is refused (exit 2) rather than written
// through: report.json, report.html and artifacts/ hold page content.
func prepareOutDir(dir string, mode artifacts.Mode) error {
	want := mode.Dir()
	path := filepath.Clean(dir) // "link/" would make Lstat follow the link
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(path, want); err != nil {
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
	if dfi.Mode().Perm() != want {
		if err := d.Chmod(want); err != nil {
			return usageError("--out %s: mode %s and cannot set it to %#o", dir, dfi.Mode().Perm(), want)
		}
	}
	return nil
}
