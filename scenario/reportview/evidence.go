package reportview

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
)

// Read caps: a screenshot larger than a few MiB or a JSON summary larger than the runtime's
// own limits is not one fastbrowser wrote, so it is refused rather than read.
const (
	maxPNGBytes  = budgets.ScreenshotBytes
	maxJSONBytes = budgets.DiagnosticsBytes
)

// errUnavailable is why an evidence file is not shown; its text is displayed after
// "evidence file unavailable".
type errUnavailable string

func (e errUnavailable) Error() string { return string(e) }

// readEvidence returns the bytes of m's file under dir, only if they are provably the bytes
// the report committed to: clean relative path, no symlink anywhere below dir, a regular
// file, the exact byte count and SHA-256 of m. It never follows a symlink and never reads
// more than m.Bytes (itself capped by kind).
func readEvidence(dir string, m artifacts.Meta) ([]byte, error) {
	if dir == "" {
		return nil, errUnavailable("no artifacts directory")
	}
	p := m.Path
	if p == "" || filepath.IsAbs(p) || strings.Contains(p, "..") || filepath.Clean(p) != p {
		return nil, errUnavailable("path refused")
	}
	limit := int64(maxJSONBytes)
	if m.ContentType == "image/png" {
		limit = maxPNGBytes
	}
	if m.Bytes <= 0 || m.Bytes > limit {
		return nil, errUnavailable("size out of bounds")
	}
	want, err := hex.DecodeString(m.SHA256)
	if err != nil || len(want) != sha256.Size {
		return nil, errUnavailable("no valid sha256")
	}
	full, last, err := walkNoSymlinks(dir, p)
	if err != nil {
		return nil, err
	}
	// O_NOFOLLOW closes the gap between the Lstat above and the open: a file swapped for a
	// symlink meanwhile fails to open; SameFile catches any other swap.
	f, err := os.OpenFile(full, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, errUnavailable("cannot open")
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !os.SameFile(fi, last) {
		return nil, errUnavailable("file changed while reading")
	}
	if fi.Size() != m.Bytes {
		return nil, errUnavailable("size mismatch")
	}
	data, err := io.ReadAll(io.LimitReader(f, m.Bytes+1))
	if err != nil {
		return nil, errUnavailable("read failed")
	}
	if int64(len(data)) != m.Bytes {
		return nil, errUnavailable("size mismatch")
	}
	got := sha256.Sum256(data)
	if hex.EncodeToString(got[:]) != hex.EncodeToString(want) {
		return nil, errUnavailable("sha256 mismatch")
	}
	return data, nil
}

// walkNoSymlinks Lstats every component of rel below dir (dir itself is the caller's
// choice and may be a symlink): each must be a real directory, the last a regular file.
func walkNoSymlinks(dir, rel string) (string, os.FileInfo, error) {
	cur := dir
	parts := strings.Split(filepath.ToSlash(rel), "/")
	var fi os.FileInfo
	for i, part := range parts {
		cur = filepath.Join(cur, part)
		var err error
		fi, err = os.Lstat(cur)
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, errUnavailable("missing")
		}
		if err != nil {
			return "", nil, errUnavailable("cannot stat")
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return "", nil, errUnavailable("symlink refused")
		}
		if i < len(parts)-1 && !fi.IsDir() {
			return "", nil, errUnavailable("missing")
		}
	}
	if !fi.Mode().IsRegular() {
		return "", nil, errUnavailable("not a regular file")
	}
	return cur, fi, nil
}
