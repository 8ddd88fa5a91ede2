package sessions

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Locks are flock(2) locks on small 0600 files. The kernel drops one when its holder dies,
// even by SIGKILL, so a lock that can be taken proves its holder gone. flock belongs to the
// open file description: two opens in one process exclude each other like two processes.
// The files are opened close-on-exec (os.OpenFile always is), so Chromium and the worker
// never inherit a lock.

// errHeld: the lock is held by someone else.
var errHeld = errors.New("held by another process")

// profileLockName is the lock a session holds in its --profile directory.
const profileLockName = ".fastbrowser-session.lock"

// lockFile opens (creating) path and takes an exclusive flock on it, trying again every
// budgets.SessionLockPoll for at most wait (0: once). It returns the open file, whose close
// releases the lock, or errHeld.
func lockFile(path string, wait time.Duration) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, filePerm)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(filePerm); err != nil { // the umask may have taken bits
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
			return nil, errHeld
		}
		time.Sleep(budgets.SessionLockPoll)
	}
}

func flock(f *os.File, how int) error {
	for {
		if err := syscall.Flock(int(f.Fd()), how); !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// releaser closes f once, however often it is called.
func releaser(f *os.File) func() {
	var once sync.Once
	return func() { once.Do(func() { f.Close() }) }
}

// lockRecord takes the session's record lock (session.json and history.jsonl writers).
func (d *Dir) lockRecord(wait time.Duration) (func(), error) {
	path := filepath.Join(d.Path, recordLockName)
	f, err := lockFile(path, wait)
	if errors.Is(err, errHeld) {
		return nil, fmt.Errorf("sessions: session %s's record lock %s is still held after %s", d.ID, path, wait)
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot lock session %s's record (%s): %w", d.ID, path, err)
	}
	return releaser(f), nil
}

// LockHost takes the session's host lock, which the host holds for its whole life; the
// kernel releases it when the host dies, even by SIGKILL. It fails if another host holds it.
// It waits budgets.SessionHostLock at most: a sweeping command's HostAlive holds the lock
// for an instant.
func (d *Dir) LockHost() (release func(), err error) {
	path := filepath.Join(d.Path, hostLockName)
	f, err := lockFile(path, budgets.SessionHostLock)
	if errors.Is(err, errHeld) {
		return nil, fmt.Errorf("sessions: session %s already has a host (%s is locked)", d.ID, path)
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot take session %s's host lock (%s): %w", d.ID, path, err)
	}
	return releaser(f), nil
}

// HostAlive reports whether a process holds the session's host lock. It tries the lock
// without waiting: taking it proves no host, and it is released at once. In doubt (the lock
// file cannot be opened for another reason than being missing) the host counts as alive.
func (d *Dir) HostAlive() bool {
	f, err := os.OpenFile(filepath.Join(d.Path, hostLockName), os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	return flock(f, syscall.LOCK_EX|syscall.LOCK_NB) != nil // taken: closing releases it
}

// ProfileInUseError: another session holds the --profile directory.
type ProfileInUseError struct{ Profile, Holder string }

func (e *ProfileInUseError) Error() string {
	if e.Holder == "" { // the holder has locked but not yet written its id
		return fmt.Sprintf("profile %s is in use by another session", e.Profile)
	}
	return fmt.Sprintf("profile %s is in use by session %s; end it with \"fastbrowser session close %s\"", e.Profile, e.Holder, e.Holder)
}

// Code is CodeProfileInUse.
func (e *ProfileInUseError) Code() string { return CodeProfileInUse }

// LockProfile makes sessionID the one session using profileDir (absolute; created 0700 if
// missing): an exclusive flock on profileDir/.fastbrowser-session.lock, whose content is the
// holder's id. Held elsewhere, it is a *ProfileInUseError naming the holder.
func LockProfile(profileDir, sessionID string) (release func(), err error) {
	if !filepath.IsAbs(profileDir) {
		return nil, fmt.Errorf("sessions: profile %q is not an absolute path", profileDir)
	}
	if err := os.MkdirAll(profileDir, dirPerm); err != nil {
		return nil, fmt.Errorf("sessions: cannot create profile %s: %w", profileDir, err)
	}
	path := filepath.Join(profileDir, profileLockName)
	f, err := lockFile(path, 0)
	if errors.Is(err, errHeld) {
		return nil, &ProfileInUseError{Profile: profileDir, Holder: profileHolder(path)}
	}
	if err != nil {
		return nil, fmt.Errorf("sessions: cannot lock profile %s (%s): %w", profileDir, path, err)
	}
	// The id is written after the lock is taken, so it is always the current holder's.
	// Both failures count (an err declared in the if would have hidden them): a lock whose
	// holder cannot be read names nobody, or an old holder.
	if err = f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(sessionID), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sessions: cannot write profile lock %s: %w", path, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = f.Truncate(0) // no stale holder for the next reader
			f.Close()
		})
	}, nil
}

// profileHolder reads the session id in a held profile lock; anything that is not an id
// (nothing written yet, a foreign file) is "".
func profileHolder(path string) string {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 64))
	if id := string(bytes.TrimSpace(b)); ValidID(id) {
		return id
	}
	return ""
}
