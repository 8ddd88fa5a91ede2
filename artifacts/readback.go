package artifacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrMismatch: a committed artifact's bytes are not those its Meta records (size or
// SHA-256): edited, truncated or swapped since it was committed.
var ErrMismatch = errors.New("its bytes do not match the recorded size and sha256")

// ErrSizeMismatch and ErrHashMismatch say which of the two did not match; each is an
// ErrMismatch (errors.Is).
var (
	ErrSizeMismatch = fmt.Errorf("size: %w", ErrMismatch)
	ErrHashMismatch = fmt.Errorf("sha256: %w", ErrMismatch)
)

// ErrMissing: no file where a Meta says its artifact was committed.
var ErrMissing = errors.New("no artifact file at its recorded path")

// ReadCommitted reads back the artifact m describes from a store root (a run's
// DIR/artifacts, wherever it was copied to), only if it provably holds the bytes m records:
// a clean relative Path of the store's layout (session/run/file), no symlink below root, a
// regular file of exactly m.Bytes (within its kind's limit) whose SHA-256 is m.SHA256. It
// never follows a symlink and never reads more than m.Bytes. merge-reports uses it before it
// commits a copy to a store of its own; report.html before it embeds or summarises evidence.
func ReadCommitted(root string, m Meta) ([]byte, error) {
	info, ok := kinds[m.Kind]
	if !ok {
		return nil, fmt.Errorf("artifacts: kind %q: %w", m.Kind, ErrBadKind)
	}
	parts := strings.Split(m.Path, "/")
	if len(parts) != 3 || filepath.IsAbs(m.Path) || filepath.ToSlash(filepath.Clean(m.Path)) != m.Path {
		return nil, fmt.Errorf("artifacts: path %q is not session/run/file: %w", m.Path, ErrBadID)
	}
	for _, p := range parts {
		if !validID(p) {
			return nil, fmt.Errorf("artifacts: path %q: %w", m.Path, ErrBadID)
		}
	}
	want, err := hex.DecodeString(m.SHA256)
	if err != nil || len(want) != sha256.Size {
		return nil, fmt.Errorf("artifacts: %s: no valid sha256 recorded: %w", m.Path, ErrMismatch)
	}
	if m.Bytes < 0 || m.Bytes > info.limit {
		return nil, fmt.Errorf("artifacts: %s: %d bytes, over the %s limit: %w", m.Path, m.Bytes, m.Kind, ErrTooLarge)
	}
	cur := root
	var last os.FileInfo
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		if last, err = os.Lstat(cur); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrMissing)
		} else if err != nil {
			return nil, fmt.Errorf("artifacts: %s: %w", m.Path, err)
		}
		if last.Mode()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrSymlink)
		}
		if i < len(parts)-1 && !last.IsDir() {
			return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrNotDir)
		}
	}
	// O_NOFOLLOW and SameFile close the gap between the Lstat above and the open.
	f, err := os.OpenFile(cur, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("artifacts: %s: %w", m.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !os.SameFile(fi, last) {
		return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrChanged)
	}
	data, err := io.ReadAll(io.LimitReader(f, m.Bytes+1))
	if err != nil {
		return nil, fmt.Errorf("artifacts: %s: %w", m.Path, err)
	}
	if int64(len(data)) != m.Bytes {
		return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrSizeMismatch)
	}
	if got := sha256.Sum256(data); !bytes.Equal(got[:], want) {
		return nil, fmt.Errorf("artifacts: %s: %w", m.Path, ErrHashMismatch)
	}
	return data, nil
}
