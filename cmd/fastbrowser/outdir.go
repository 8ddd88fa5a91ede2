package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/artifacts"
)

// prepareOutDir readies --out DIR and DIR/artifacts (the scenarios' evidence store) before
// anything runs, under the artifacts package's one rule (artifacts.PrepareDir): a missing
// directory is created with mode's directory mode (0700, or 0750 with --artifacts-mode
// group); an existing one is never chmodded, and is used only if it is a real directory of
// this user that nobody else can write in (not sticky either) and whose mode gives at least
// that (a mkdir's 0755 does; everything written in it is 0600 or 0640 whatever its mode).
// Anything else is refused (exit 2, dirRefused says which and what to give instead) rather
// than written through: report.json, report.html and artifacts/ hold page content.
func prepareOutDir(dir string, mode artifacts.Mode) error {
	if err := artifacts.PrepareDir(dir, mode); err != nil {
		return dirRefused("--out", dir, "fastbrowser-results", err)
	}
	// Checked here too, so a symlink planted as DIR/artifacts is this refusal before anything
	// runs, not every scenario's internal error when its store will not open.
	if err := artifacts.PrepareDir(filepath.Join(dir, "artifacts"), mode); err != nil {
		return dirRefused("--out", dir, "fastbrowser-results", err)
	}
	return nil
}

// dirRefused is the usage error (exit 2) for a directory given as flag DIR that the
// artifacts package refused (err from PrepareDir or artifacts.Open): it names the directory
// (DIR, or the one inside it that was refused), says why, and what to give instead; sub is
// the subfolder suggested in place of a shared directory. run, replay and serve all use it.
func dirRefused(flag, dir, sub string, err error) error {
	head := flag + " " + dir + ": "
	var de *artifacts.DirError
	if !errors.As(err, &de) {
		return usageError("%scannot be used: %s", head, artifacts.Cause(err))
	}
	inside := false // de.Path is a directory under DIR (DIR/artifacts), not DIR itself
	if abs, aerr := filepath.Abs(dir); aerr == nil && de.Path != abs && de.Path != filepath.Clean(dir) {
		head, inside = head+de.Path+" ", true
	}
	const never = "fastbrowser never changes the mode of a directory it did not create"
	switch {
	case errors.Is(err, artifacts.ErrSymlink):
		return usageError("%sis a symlink; give the real directory (a symlink is never followed)", head)
	case errors.Is(err, artifacts.ErrNotDir):
		return usageError("%sexists and is not a directory", head)
	case errors.Is(err, artifacts.ErrShared) && !inside:
		return usageError("%sis a shared directory (mode %s: writable by others or sticky) and is refused: %s. "+
			"Give a directory of your own that does not exist yet, such as %s", head, octal(de.Mode), never, filepath.Join(dir, sub))
	case errors.Is(err, artifacts.ErrShared):
		return usageError("%shas mode %s (others can write in it) and is refused: %s. chmod %o it, or remove it",
			head, octal(de.Mode), never, de.Mode.Perm()&^0o022|de.Want)
	case errors.Is(err, artifacts.ErrMode):
		return usageError("%shas mode %s, which keeps out who fastbrowser writes for (it needs at least %s), and is refused: %s. chmod %o it, or give a path that does not exist yet",
			head, octal(de.Mode), octal(de.Want), never, de.Mode.Perm()|de.Want)
	case errors.Is(err, artifacts.ErrNotOwned):
		return usageError("%sis owned by uid %d, not by this user", head, de.UID)
	}
	return usageError("%scannot be used: %s", head, artifacts.Cause(err))
}

// octal writes a directory mode as chmod takes it: 0755, 1777.
func octal(m fs.FileMode) string {
	n := uint32(m.Perm())
	if m&fs.ModeSticky != 0 {
		n |= 0o1000
	}
	if m&fs.ModeSetgid != 0 {
		n |= 0o2000
	}
	if m&fs.ModeSetuid != 0 {
		n |= 0o4000
	}
	return fmt.Sprintf("%04o", n)
}
