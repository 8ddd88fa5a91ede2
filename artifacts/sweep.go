package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// sweep removes temp files a killed process left in the session's run dirs: they hold
// evidence bytes that were never committed and must not linger. It enters only real
// directories and removes only regular files named .tmp-*; symlinks are never followed
// (ReadDir reports the entry's own type, and unlink does not follow a final symlink).
func sweep(sessionDir string) error {
	runs, err := readDirNoFollow(sessionDir)
	if err != nil {
		return err
	}
	for _, run := range runs {
		if !run.IsDir() || !validID(run.Name()) {
			continue
		}
		runDir := filepath.Join(sessionDir, run.Name())
		// A real directory of ours, whatever its mode: the sweep only removes (a write into a
		// run dir of another mode is refused by verifyDir).
		if err := checkDir(runDir, nil); err != nil {
			return err
		}
		entries, err := readDirNoFollow(runDir)
		if err != nil {
			return err
		}
		removed := false
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), tmpPrefix) || !e.Type().IsRegular() {
				continue
			}
			p := filepath.Join(runDir, e.Name())
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("artifacts: cannot sweep leftover temp file %s: %w", p, err)
			}
			removed = true
		}
		if removed {
			if err := syncDir(runDir); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDirNoFollow lists a directory opened with O_NOFOLLOW, so a run dir swapped for a
// symlink is refused rather than listed.
func readDirNoFollow(path string) ([]fs.DirEntry, error) {
	d, err := openDir(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("artifacts: cannot list %s: %w", path, err)
	}
	return entries, nil
}
