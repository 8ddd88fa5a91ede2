package runtime_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
)

// TestHoldProfileNamesItsHolder: a profile held by a session or by a run refuses a second
// hold with a *ProfileInUseError whose message names the holder and what to do, word for
// word; released, the profile is free again and the lock file names no one.
func TestHoldProfileNamesItsHolder(t *testing.T) {
	cases := []struct {
		name   string
		holder runtime.ProfileHolder
		heldBy string
	}{
		{"session", runtime.ProfileHolder{Session: "s-1234abcd"},
			`held by session s-1234abcd; end it with "fastbrowser session close s-1234abcd --keep" (or close it)`},
		{"run", runtime.ProfileHolder{RunPid: 4242}, "in use by fastbrowser run (pid 4242); wait for it to finish"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			profile := filepath.Join(t.TempDir(), "profile") // made by the hold
			release, err := runtime.HoldProfile(profile, c.holder)
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(profile); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("profile dir: %v %v, want a 0700 directory", fi, err)
			}
			_, err = runtime.HoldProfile(profile, runtime.ProfileHolder{Session: "s-0000bbbb"})
			var inUse *runtime.ProfileInUseError
			if !errors.As(err, &inUse) || inUse.Holder != c.holder || inUse.Profile != profile {
				t.Fatalf("second hold = %#v, want a ProfileInUseError naming %+v", err, c.holder)
			}
			if want := "the profile " + profile + " is " + c.heldBy; err.Error() != want {
				t.Errorf("error = %q\nwant    %q", err.Error(), want)
			}
			release()
			release() // a second release is harmless
			lock := filepath.Join(profile, ".fastbrowser-profile.lock")
			if b, err := os.ReadFile(lock); err != nil || len(b) != 0 {
				t.Errorf("released lock file holds %q (%v); want it empty (no stale holder)", b, err)
			}
			again, err := runtime.HoldProfile(profile, runtime.ProfileHolder{RunPid: 7})
			if err != nil {
				t.Fatalf("hold after release: %v", err)
			}
			again()
		})
	}
	if _, err := runtime.HoldProfile("relative", runtime.ProfileHolder{RunPid: 1}); err == nil {
		t.Error("a relative profile was accepted")
	}
}

// TestHoldProfileForeignLockFile: a held lock whose content names no holder in the known
// form (here a stray word) names no one rather than repeating the file.
func TestHoldProfileForeignLockFile(t *testing.T) {
	profile := t.TempDir()
	release, err := runtime.HoldProfile(profile, runtime.ProfileHolder{Session: "s-1"})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.WriteFile(filepath.Join(profile, ".fastbrowser-profile.lock"), []byte("session ../../etc x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = runtime.HoldProfile(profile, runtime.ProfileHolder{RunPid: 2})
	if err == nil || err.Error() != "the profile "+profile+" is in use by another fastbrowser session or run" {
		t.Errorf("err = %v", err)
	}
}

// TestHoldProfileWriteFails: a hold whose holder cannot be written (the lock path is a
// FIFO: it opens and locks, but cannot be truncated) is an error, not a lock held under
// nobody's name, and leaves nothing held.
func TestHoldProfileWriteFails(t *testing.T) {
	profile := t.TempDir()
	lock := filepath.Join(profile, ".fastbrowser-profile.lock")
	if err := syscall.Mkfifo(lock, 0o600); err != nil {
		t.Fatal(err)
	}
	release, err := runtime.HoldProfile(profile, runtime.ProfileHolder{Session: "s-0000aaaa"})
	if err == nil {
		release()
		t.Fatal("HoldProfile succeeded though the holder could not be written")
	}
	if want := "runtime: cannot write profile lock " + lock + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the lock is still held after the failed hold: %v", err)
	}
}
