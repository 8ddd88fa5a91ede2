package sessions

import (
	"errors"
	"os/exec"
	"path/filepath"
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

// TestLockProfile: a --profile directory is held by one session (runtime.HoldProfile); a
// second open is profile_in_use, told which session holds it and how to end it; released,
// it is free again.
func TestLockProfile(t *testing.T) {
	profile := filepath.Join(t.TempDir(), "profile") // made by LockProfile
	release, err := LockProfile(profile, "s-0000aaaa")
	if err != nil {
		t.Fatal(err)
	}
	requireMode(t, filepath.Join(profile, ".fastbrowser-profile.lock"), 0o600)
	requireMode(t, profile, 0o700)

	_, err = LockProfile(profile, "s-0000bbbb")
	var se *Error
	if !errors.As(err, &se) || se.Code() != CodeProfileInUse {
		t.Fatalf("second LockProfile = %v, want a profile_in_use Error", err)
	}
	want := "the profile " + profile + ` is held by session s-0000aaaa; end it with "fastbrowser session close s-0000aaaa --keep" (or close it)`
	if se.Message != want {
		t.Errorf("message = %q\nwant      %q", se.Message, want)
	}

	release()
	again, err := LockProfile(profile, "s-0000bbbb")
	if err != nil {
		t.Fatalf("LockProfile after release: %v", err)
	}
	again()
	if _, err := LockProfile("relative", "s-0000cccc"); err == nil {
		t.Error("a relative profile was accepted")
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
