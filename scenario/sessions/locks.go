package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/filelock"
)

// The session's record and host locks are filelock locks: the kernel drops one when its
// holder dies, even by SIGKILL, so a lock that can be taken proves its holder gone. A
// --profile directory is held with runtime.HoldProfile, the hold `run --profile` takes too.

// releaser closes f once, however often it is called.
func releaser(f *os.File) func() {
	var once sync.Once
	return func() { once.Do(func() { f.Close() }) }
}

// lockRecord takes the session's record lock (session.json and history.jsonl writers).
func (d *Dir) lockRecord(wait time.Duration) (func(), error) {
	path := filepath.Join(d.Path, recordLockName)
	f, err := filelock.Lock(path, wait, budgets.SessionLockPoll)
	if errors.Is(err, filelock.ErrHeld) {
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
	f, err := filelock.Lock(path, budgets.SessionHostLock, budgets.SessionLockPoll)
	if errors.Is(err, filelock.ErrHeld) {
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
func (d *Dir) HostAlive() bool { return filelock.Held(filepath.Join(d.Path, hostLockName)) }

// LockProfile makes sessionID the one holder of profileDir (absolute; created 0700 if
// missing): runtime.HoldProfile, so that a session and `run --profile` exclude each other.
// Held elsewhere, it is a profile_in_use Error naming the holder and what to do.
func LockProfile(profileDir, sessionID string) (release func(), err error) {
	release, err = runtime.HoldProfile(profileDir, runtime.ProfileHolder{Session: sessionID})
	var inUse *runtime.ProfileInUseError
	if errors.As(err, &inUse) {
		return nil, Errorf(CodeProfileInUse, "%s", inUse.Error())
	}
	return release, err
}
