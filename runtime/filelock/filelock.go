// Package filelock owns fastbrowser's cross-process locks: an exclusive flock(2) on a small
// 0600 file. The kernel drops one when its holder dies, even by SIGKILL, so a lock that can
// be taken proves its holder gone and a killed process never wedges what it held. flock
// belongs to the open file description: two opens in one process exclude each other like
// two processes. Files are opened close-on-exec (os.OpenFile always is), so a child
// (Chromium, the worker) never inherits a lock.
//
// The session state (scenario/sessions: record and host locks) and persistent profiles
// (runtime.HoldProfile, held by a session or a run) both lock through it. It never waits
// unbounded: a wait is the caller's budget.
package filelock

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// ErrHeld: the lock is held by another holder (another process, or another open of the
// file in this one).
var ErrHeld = errors.New("held by another process")

// perm is the lock files' mode: only their owner may open them.
const perm = 0o600

// Lock opens (creating, 0600, never through a symlink) path and takes an exclusive flock on
// it, trying again every poll for at most wait (0: once). It returns the open file, whose
// Close releases the lock, or ErrHeld.
func Lock(path string, wait, poll time.Duration) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, perm)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(perm); err != nil { // the umask may have taken bits
		f.Close()
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, err
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, ErrHeld
		}
		time.Sleep(poll)
	}
}

// Held reports whether a holder has path locked. It tries the lock without waiting: taking
// it proves no holder, and it is released at once. A missing file is not held; in doubt
// (the file cannot be opened for another reason) it counts as held.
func Held(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	return flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil // taken: closing releases it
}

func flock(f *os.File, how int) error {
	for {
		if err := syscall.Flock(int(f.Fd()), how); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
