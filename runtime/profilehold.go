package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"

	"github.com/fastbrowser/fastbrowser/runtime/filelock"
)

// A persistent profile is held by one owner at a time, a session (from `session open` to
// its end) or a run (`run --profile`, for its whole life), so that neither starts a browser
// on a profile the other uses: Chromium's own singleton lock would only refuse the second
// launch, late and without naming the holder. The hold is a filelock in the profile
// directory; the kernel releases it when the holder dies, so a killed run or session host
// never wedges the profile. The lock file names the holder, for the refusal's message.

// profileLockName is the lock file in a held profile directory.
const profileLockName = ".fastbrowser-profile.lock"

// ProfileHolder is who holds a profile: a session (Session, its id) or a run (RunPid, the
// `fastbrowser run` process's id). The zero value is a holder not yet named.
type ProfileHolder struct {
	Session string
	RunPid  int
}

// record is the holder as the lock file says it: "session ID" or "run PID".
func (h ProfileHolder) record() string {
	if h.Session != "" {
		return "session " + h.Session
	}
	return "run " + strconv.Itoa(h.RunPid)
}

// sessionIDForm is what a session id in a lock file may look like (anything else names no
// one: a message never repeats arbitrary file content).
var sessionIDForm = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`) })

// parseHolder reads a lock file's record; anything else (nothing written yet, a foreign
// file) is the zero holder.
func parseHolder(b []byte) ProfileHolder {
	kind, val, _ := bytes.Cut(bytes.TrimSpace(b), []byte(" "))
	switch string(kind) {
	case "session":
		if sessionIDForm().Match(val) {
			return ProfileHolder{Session: string(val)}
		}
	case "run":
		if pid, err := strconv.Atoi(string(val)); err == nil && pid > 0 {
			return ProfileHolder{RunPid: pid}
		}
	}
	return ProfileHolder{}
}

// ProfileInUseError: another session or run holds the profile.
type ProfileInUseError struct {
	Profile string
	Holder  ProfileHolder
}

func (e *ProfileInUseError) Error() string { return "the profile " + e.Profile + " is " + e.HeldBy() }

// HeldBy says who holds the profile and what to do about it, as a sentence's end: "held by
// session s-1234abcd; end it with …" or "in use by fastbrowser run (pid 4242); wait …".
func (e *ProfileInUseError) HeldBy() string {
	switch h := e.Holder; {
	case h.Session != "":
		return fmt.Sprintf("held by session %s; end it with \"fastbrowser session close %s --keep\" (or close it)", h.Session, h.Session)
	case h.RunPid > 0:
		return fmt.Sprintf("in use by fastbrowser run (pid %d); wait for it to finish", h.RunPid)
	}
	return "in use by another fastbrowser session or run" // locked, its holder not yet written
}

// HoldProfile makes holder the one user of the persistent profile dir (absolute; created
// 0700 if missing) until release is called or the process ends: an exclusive lock on
// dir/.fastbrowser-profile.lock, whose content names the holder. Held elsewhere (another
// process, or another hold in this one), it is a *ProfileInUseError naming the holder.
// release is safe to call more than once.
func HoldProfile(dir string, holder ProfileHolder) (release func(), err error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("runtime: profile %q is not an absolute path", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("runtime: cannot create profile %s: %w", dir, err)
	}
	path := filepath.Join(dir, profileLockName)
	f, err := filelock.Lock(path, 0, 0)
	if errors.Is(err, filelock.ErrHeld) {
		return nil, &ProfileInUseError{Profile: dir, Holder: readHolder(path)}
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: cannot lock profile %s (%s): %w", dir, path, err)
	}
	// The holder is written after the lock is taken, so it is always the current one's.
	// Both failures count: a lock whose holder cannot be written names nobody, or an old
	// holder.
	if err = f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(holder.record()), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("runtime: cannot write profile lock %s: %w", path, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			_ = f.Truncate(0) // no stale holder for the next reader
			f.Close()
		})
	}, nil
}

// readHolder reads the holder a held profile lock names.
func readHolder(path string) ProfileHolder {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return ProfileHolder{}
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 128))
	return parseHolder(b)
}
