package sessions

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLockHostTwice: one host per session; the lock is free again once released.
func TestLockHostTwice(t *testing.T) {
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	if d.HostAlive() {
		t.Fatal("HostAlive before any host")
	}
	release, err := d.LockHost()
	if err != nil {
		t.Fatal(err)
	}
	requireMode(t, filepath.Join(d.Path, "host.lock"), 0o600)
	if _, err := d.LockHost(); err == nil {
		t.Fatal("a second LockHost succeeded while the first holds the lock")
	}
	if !d.HostAlive() {
		t.Error("HostAlive = false while the host lock is held")
	}
	release()
	release() // a second release is harmless
	requireNoHost(t, d, "after the host released its lock")
}

// requireNoHost: nothing holds d's host lock any more, so a new host can take it.
func requireNoHost(t *testing.T, d *Dir, when string) {
	t.Helper()
	if d.HostAlive() {
		t.Fatalf("HostAlive = true %s", when)
	}
	release, err := d.LockHost()
	if err != nil {
		t.Fatalf("LockHost %s: %v", when, err)
	}
	release()
}

// TestHostAliveAcrossProcesses: a host in another process is alive while it holds the lock
// and dead once SIGKILLed (the kernel drops the lock with the process).
func TestHostAliveAcrossProcesses(t *testing.T) {
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	h := startHost(t, d)
	if !d.HostAlive() {
		t.Fatal("HostAlive = false while another process holds the host lock")
	}
	if !d.HostAlive() { // the check itself must not take the lock away
		t.Fatal("HostAlive = false on the second look")
	}
	if _, err := d.LockHost(); err == nil {
		t.Fatal("LockHost succeeded while another process holds the host lock")
	}
	h.kill()
	requireNoHost(t, d, "after the host process was SIGKILLed")
}

// TestLockProfile: a --profile directory is held by one session; a second is told which
// session holds it and how to end it; released, it is free again.
func TestLockProfile(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "profile") // made by LockProfile
	release, err := LockProfile(profile, "s-0000aaaa")
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(profile, ".fastbrowser-session.lock")
	requireMode(t, lock, 0o600)
	requireMode(t, profile, 0o700)
	if b, err := os.ReadFile(lock); err != nil || string(b) != "s-0000aaaa" {
		t.Errorf("lock file holds %q, %v; want the holder's id", b, err)
	}

	_, err = LockProfile(profile, "s-0000bbbb")
	var inUse *ProfileInUseError
	if !errors.As(err, &inUse) || inUse.Holder != "s-0000aaaa" || inUse.Profile != profile || inUse.Code() != CodeProfileInUse {
		t.Fatalf("second LockProfile = %v, want a ProfileInUseError naming s-0000aaaa", err)
	}
	want := "profile " + profile + ` is in use by session s-0000aaaa; end it with "fastbrowser session close s-0000aaaa"`
	if err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err.Error(), want)
	}

	release()
	again, err := LockProfile(profile, "s-0000bbbb")
	if err != nil {
		t.Fatalf("LockProfile after release: %v", err)
	}
	defer again()
	if b, _ := os.ReadFile(lock); string(b) != "s-0000bbbb" {
		t.Errorf("lock file holds %q after the second session took it", b)
	}
	if _, err := LockProfile("relative", "s-0000cccc"); err == nil {
		t.Error("a relative profile was accepted")
	}
}

// TestLockProfileWriteFails: a profile lock whose holder cannot be written (here the lock
// path is a FIFO: it opens and locks, but cannot be truncated) is an error, not a lock held
// under nobody's name.
func TestLockProfileWriteFails(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "profile")
	if err := os.Mkdir(profile, 0o700); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(profile, ".fastbrowser-session.lock")
	if err := syscall.Mkfifo(lock, 0o600); err != nil {
		t.Fatal(err)
	}
	release, err := LockProfile(profile, "s-0000aaaa")
	if err == nil {
		release()
		t.Fatal("LockProfile succeeded though the holder's id could not be written")
	}
	if want := "sessions: cannot write profile lock " + lock + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want it to start %q", err, want)
	}
	// Nothing is left held: the lock taken before the failed write was let go.
	f, err := os.OpenFile(lock, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("the lock is still held after the failed LockProfile: %v", err)
	}
}

// TestLocksNotInherited: a child started while a lock is held (as Chromium and the worker
// are) does not keep it once its holder lets go.
func TestLocksNotInherited(t *testing.T) {
	s := openStore(t)
	d := create(t, s, sampleRecord(s.NewID()))
	releaseHost, err := d.LockHost()
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	releaseProfile, err := LockProfile(profile, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("/bin/sh", "-c", "read x")
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = child.Wait() }()

	releaseHost()
	releaseProfile()
	requireNoHost(t, d, "with the host gone and its child running")
	again, err := LockProfile(profile, "s-0000bbbb")
	if err != nil {
		t.Fatalf("LockProfile with the holder gone and its child running: %v", err)
	}
	again()
}
