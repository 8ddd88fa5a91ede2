package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Writer is one artifact being written. Bytes go to a temp file in the run dir and become
// visible under the final name only on Commit. Safe for concurrent use, though an artifact
// is normally written by one goroutine.
type Writer struct {
	store  *Store
	info   kindInfo
	runDir string
	final  string // absolute final path
	tmp    string // absolute temp path

	mu   sync.Mutex
	f    *os.File
	sum  hash.Hash
	meta Meta  // Bytes, SHA256 and Truncated are filled as writing goes
	done error // non-nil once committed, discarded or failed: why the writer is unusable
}

var errCommitted = errors.New("artifacts: artifact already committed")

// create makes the temp file: O_EXCL so an existing name (or planted symlink) is never
// reused, O_NOFOLLOW so a symlink is never written through, and fchmod so the mode is 0600
// whatever the umask.
func (w *Writer) create() error {
	var err error
	for range 3 { // a random name colliding is near impossible; retry rather than reason about it
		w.tmp = filepath.Join(w.runDir, w.store.newTmp())
		w.f, err = os.OpenFile(w.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, w.store.mode.File())
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		w.f = nil
		return fmt.Errorf("artifacts: cannot create temp file in %s: %w", w.runDir, err)
	}
	if err := w.f.Chmod(w.store.mode.File()); err != nil {
		w.abort()
		return fmt.Errorf("artifacts: cannot set mode %#o on temp file in %s: %w", w.store.mode.File(), w.runDir, err)
	}
	w.sum = sha256.New()
	return nil
}

// Write appends p. Going over the kind's limit returns ErrTooLarge and writes nothing of p.
// For a screenshot that also discards the artifact (a partial PNG is worthless). For
// diagnostics the writer stays open, so the caller can write a cut remainder, call
// SetTruncated and Commit. Any I/O failure (disk full, EFBIG from RLIMIT_FSIZE) discards
// the artifact and returns the error; committed artifacts are never touched.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil {
		return 0, w.done
	}
	if w.meta.Bytes+int64(len(p)) > w.info.limit {
		err := fmt.Errorf("%w: %s would be %d bytes, limit %d", ErrTooLarge, w.meta.Kind,
			w.meta.Bytes+int64(len(p)), w.info.limit)
		if !w.info.diagnostics {
			w.fail(err)
		}
		return 0, err
	}
	n, err := w.f.Write(p)
	w.sum.Write(p[:n])
	w.meta.Bytes += int64(n)
	if err != nil {
		err = fmt.Errorf("artifacts: write of %s %s failed: %w", w.meta.Kind, w.meta.ID, err)
		w.fail(err)
		return n, err
	}
	return n, nil
}

// SetTruncated marks the artifact as cut short by the caller (diagnostics cut to the limit).
func (w *Writer) SetTruncated() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done == nil {
		w.meta.Truncated = true
	}
}

// Commit makes the artifact durable and visible: fsync the file, link it to its final name
// (link fails if anything, even a dangling symlink, is already there, so nothing is
// clobbered or written through), unlink the temp name, fsync the run dir. An error means no
// artifact was committed and the temp file is gone.
func (w *Writer) Commit() (Meta, error) {
	meta, err := w.commit()
	w.store.forget(w)
	return meta, err
}

func (w *Writer) commit() (Meta, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil {
		return Meta{}, w.done
	}
	if err := w.f.Sync(); err != nil {
		err = fmt.Errorf("artifacts: cannot sync %s %s: %w", w.meta.Kind, w.meta.ID, err)
		w.fail(err)
		return Meta{}, err
	}
	err := w.f.Close()
	w.f = nil
	if err != nil {
		err = fmt.Errorf("artifacts: cannot close %s %s: %w", w.meta.Kind, w.meta.ID, err)
		w.fail(err)
		return Meta{}, err
	}
	// The run dir is re-checked: a symlink swapped in since Open must not receive the link.
	if err := verifyDir(w.runDir, w.store.mode); err != nil {
		w.fail(err)
		return Meta{}, err
	}
	if fi, err := os.Lstat(w.final); err == nil {
		err = fmt.Errorf("artifacts: refused final name %s: something already exists there: %w", w.meta.Path, existing(fi))
		w.fail(err)
		return Meta{}, err
	} else if !errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("artifacts: cannot inspect final name %s: %w", w.meta.Path, err)
		w.fail(err)
		return Meta{}, err
	}
	if w.store.beforeLink != nil {
		w.store.beforeLink(w.final)
	}
	if err := os.Link(w.tmp, w.final); err != nil {
		if fi, lerr := os.Lstat(w.final); lerr == nil {
			err = fmt.Errorf("%w (%w)", existing(fi), err) // planted after the check above
		}
		err = fmt.Errorf("artifacts: refused final name %s: %w", w.meta.Path, err)
		w.fail(err)
		return Meta{}, err
	}
	// The artifact is published. A temp name that will not go away is only a second link to
	// committed bytes; the next sweep removes it, so it does not fail the commit.
	_ = os.Remove(w.tmp)
	if err := syncDir(w.runDir); err != nil {
		// Not durable means not committed: take the final name back so error means "none".
		_ = os.Remove(w.final)
		w.fail(err)
		return Meta{}, err
	}
	w.meta.SHA256 = hex.EncodeToString(w.sum.Sum(nil))
	w.done = errCommitted
	return w.meta, nil
}

// Discard removes the temp file. It is idempotent and a no-op after Commit.
func (w *Writer) Discard() error {
	err := w.close(errors.New("artifacts: artifact was discarded"))
	w.store.forget(w)
	return err
}

// close ends an uncommitted writer with reason (what later calls will return).
func (w *Writer) close(reason error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done != nil {
		return nil
	}
	w.done = reason
	return w.abort()
}

// fail ends the writer after an error; the caller holds w.mu. The writer also leaves the
// store's live set (lock order is always w.mu then s.mu).
func (w *Writer) fail(reason error) {
	w.done = reason
	_ = w.abort()
	w.store.forget(w)
}

// abort closes and removes the temp file; the caller holds w.mu (or owns w exclusively).
func (w *Writer) abort() error {
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
	if err := os.Remove(w.tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("artifacts: cannot remove temp file of %s %s: %w", w.meta.Kind, w.meta.ID, err)
	}
	return nil
}

// existing classifies what occupies a final name: a symlink is named as such (someone
// planted it); anything else is an existing entry.
func existing(fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		return ErrSymlink
	}
	return fs.ErrExist
}
