package reportview

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/artifacts"
)

// errUnavailable is why an evidence file is not shown; its text is displayed after
// "evidence file unavailable".
type errUnavailable string

func (e errUnavailable) Error() string { return string(e) }

// readEvidence returns the bytes of m's file under dir, only if they are provably the bytes
// the report committed to (artifacts.ReadCommitted: the store's path layout, no symlink
// anywhere below dir, a regular file, the exact byte count, within its kind's limit, and
// SHA-256 of m); otherwise why not, in the words the page shows.
func readEvidence(dir string, m artifacts.Meta) ([]byte, error) {
	if dir == "" {
		return nil, errUnavailable("no artifacts directory")
	}
	if m.Bytes <= 0 {
		return nil, errUnavailable("size out of bounds")
	}
	data, err := artifacts.ReadCommitted(dir, m)
	if err == nil {
		return data, nil
	}
	for _, r := range []struct {
		err error
		why string
	}{
		{artifacts.ErrBadID, "path refused"},
		{artifacts.ErrBadKind, "kind refused"},
		{artifacts.ErrTooLarge, "size out of bounds"},
		{artifacts.ErrSizeMismatch, "size mismatch"},
		{artifacts.ErrHashMismatch, "sha256 mismatch"},
		{artifacts.ErrMismatch, "no valid sha256"},
		{artifacts.ErrMissing, "missing"},
		{artifacts.ErrNotDir, "missing"},
		{artifacts.ErrSymlink, "symlink refused"},
		{artifacts.ErrChanged, "file changed while reading"},
	} {
		if errors.Is(err, r.err) {
			return nil, errUnavailable(r.why)
		}
	}
	return nil, errUnavailable("cannot open")
}
