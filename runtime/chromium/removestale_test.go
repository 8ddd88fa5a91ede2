//go:build linux

package chromium

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRemoveStaleProfile checks the session sweep's entry point applies the launch sweep's
// rules to one named profile: proven-stale ones go with their singleton directory, and
// live, young, foreign, misnamed or linked ones stay.
func TestRemoveStaleProfile(t *testing.T) {
	t.Parallel()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}

	// A process whose command line names the profile, as a live Chromium's does.
	inUse := plantProfile(t, "")
	holder := exec.Command("/bin/sh", "-c", "read x", "sh", "--user-data-dir="+inUse)
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = holder.Wait() })
	if err := os.Symlink(host+"-"+strconv.Itoa(holder.Process.Pid), filepath.Join(inUse, "SingletonLock")); err != nil {
		t.Fatal(err)
	}

	deadLocked := plantProfile(t, host+"-"+strconv.Itoa(deadPid(t)))
	singleton := plantSingleton(t, false)
	if err := os.Symlink(filepath.Join(singleton, "SingletonSocket"), filepath.Join(deadLocked, "SingletonSocket")); err != nil {
		t.Fatal(err)
	}
	oldUnlocked := plantProfile(t, "")
	age(t, oldUnlocked)

	misnamed := plantDir(t, "not-a-profile-*")
	age(t, misnamed)
	// Stale by the launch sweep's singleton rule, but not a profile.
	singletonNamed := plantDir(t, singletonDirPrefix+"*")
	age(t, singletonNamed)
	link := filepath.Join(t.TempDir(), "fastbrowser-profile-link")
	if err := os.Symlink(oldUnlocked, link); err != nil {
		t.Fatal(err)
	}

	kept := map[string]string{
		"profile a live process names":               inUse,
		"young profile without a lock":               plantProfile(t, ""),
		"profile locked on another host":             plantProfile(t, "other-"+host+"-"+strconv.Itoa(deadPid(t))),
		"old directory without the profile prefix":   misnamed,
		"old singleton directory given as a profile": singletonNamed,
		"symlink named like a profile":               link,
	}
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := plantProfile(t, "")
		age(t, foreign)
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		kept["another user's old profile"] = foreign
	}
	for what, p := range kept {
		removed, err := RemoveStaleProfile(p)
		if removed || err != nil || !exists(p) {
			t.Errorf("%s (%s): RemoveStaleProfile = %v, %v; exists afterwards: %v, want kept", what, p, removed, err, exists(p))
		}
	}
	if !exists(oldUnlocked) {
		t.Fatal("the symlink's target was removed through the link")
	}

	for what, p := range map[string]string{
		"profile locked by a dead pid": deadLocked,
		"old profile without a lock":   oldUnlocked,
	} {
		removed, err := RemoveStaleProfile(p)
		if !removed || err != nil || exists(p) {
			t.Errorf("%s (%s): RemoveStaleProfile = %v, %v; exists afterwards: %v, want removed", what, p, removed, err, exists(p))
		}
	}
	if exists(singleton) {
		t.Errorf("the dead-locked profile's singleton directory %s survived", singleton)
	}

	if removed, err := RemoveStaleProfile(deadLocked); removed || err != nil {
		t.Errorf("an already removed profile: %v, %v, want false, nil", removed, err)
	}
	if _, err := RemoveStaleProfile("fastbrowser-profile-relative"); err == nil {
		t.Error("a relative path was accepted")
	}
}
