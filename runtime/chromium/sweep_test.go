//go:build linux

package chromium

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// deadPid is the pid of a child that has exited and been reaped.
func deadPid(t *testing.T) int {
	t.Helper()
	c := exec.Command("/bin/true")
	// Its own group: the package's leak check, run by other tests meanwhile, reaps adopted
	// zombies that lead no group, and would take this one from Run's wait.
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}

// plantDir makes a directory named pattern under the test TMPDIR, removed when the test ends.
func plantDir(t *testing.T, pattern string) string {
	t.Helper()
	d, err := os.MkdirTemp(tmpDir, pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// plantProfile is a profile with some content and, unless lock is "", a SingletonLock -> lock.
func plantProfile(t *testing.T, lock string) string {
	t.Helper()
	d := plantDir(t, profilePattern)
	if err := os.WriteFile(filepath.Join(d, "Local State"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if lock != "" {
		if err := os.Symlink(lock, filepath.Join(d, "SingletonLock")); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// plantSingleton is a singleton directory holding a unix socket; listening says whether
// anything still accepts on it.
func plantSingleton(t *testing.T, listening bool) string {
	t.Helper()
	d := plantDir(t, singletonDirPrefix+"*")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(d, "SingletonSocket"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	if listening {
		t.Cleanup(func() { ln.Close() })
	} else {
		ln.SetUnlinkOnClose(false) // the socket file stays, as a killed Chromium leaves it
		ln.Close()
	}
	return d
}

// age sets a planted entry's times to an hour ago, as if it came from an earlier run.
func age(t *testing.T, path string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, os.ErrNotExist)
}

func singletonDirOf(t *testing.T, profile string) string {
	t.Helper()
	link, err := os.Readlink(filepath.Join(profile, "SingletonSocket"))
	if err != nil {
		t.Fatalf("no SingletonSocket link in %s: %v", profile, err)
	}
	return filepath.Dir(link)
}

// TestLaunchSweepsStaleLeftovers plants what crashes leave (a really SIGKILLed Chromium's
// profile and singleton directory, and hand-made ones) next to live ones (a running
// browser's, a listening socket) and things that only look stale, then launches: exactly
// the proven-stale ones are gone, and the running browser still answers.
func TestLaunchSweepsStaleLeftovers(t *testing.T) {
	t.Parallel()
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	liveBrowser := launch(t, Options{})
	liveSingleton := singletonDirOf(t, liveBrowser.ProfileDir())
	// As if another process had launched it: only its SingletonLock and command line (not
	// this process's own bookkeeping) may keep its profile.
	untrackProfile(liveBrowser.ProfileDir())

	// A real crash: Chromium SIGKILLed with its group, its profile no longer ours (as after
	// our own process was killed), its singleton directory from an earlier run.
	killed := launch(t, Options{})
	killedSingleton := singletonDirOf(t, killed.ProfileDir())
	if err := syscall.Kill(-killed.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	proctest.RequireGroupGone(t, killed.Pid(), budgets.ProcessStopGrace().Default)
	untrackProfile(killed.ProfileDir())
	age(t, killedSingleton)

	stale := map[string]string{
		"killed chromium's profile":           killed.ProfileDir(),
		"killed chromium's singleton dir":     killedSingleton,
		"profile locked by a dead pid":        plantProfile(t, host+"-"+strconv.Itoa(deadPid(t))),
		"profile locked by a non-chromium":    plantProfile(t, host+"-"+strconv.Itoa(os.Getpid())),
		"old profile without a lock":          plantProfile(t, ""),
		"old singleton dir, refused socket":   plantSingleton(t, false),
		"old singleton dir, no socket at all": plantDir(t, singletonDirPrefix+"*"),
	}
	age(t, stale["old profile without a lock"])
	age(t, stale["old singleton dir, refused socket"])
	age(t, stale["old singleton dir, no socket at all"])

	outside := t.TempDir() // not a sweep candidate itself: its name has neither prefix
	linkTarget := filepath.Join(outside, singletonDirPrefix+"target")
	if err := os.Mkdir(linkTarget, 0o700); err != nil {
		t.Fatal(err)
	}
	age(t, linkTarget)
	link := filepath.Join(tmpDir, singletonDirPrefix+"link")
	if err := os.Symlink(linkTarget, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(link) })
	fileNamedLikeProfile := filepath.Join(tmpDir, "fastbrowser-profile-file")
	if err := os.WriteFile(fileNamedLikeProfile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(fileNamedLikeProfile) })
	kept := map[string]string{
		"live browser's profile":               liveBrowser.ProfileDir(),
		"live browser's singleton dir":         liveSingleton,
		"old singleton dir, listening socket":  plantSingleton(t, true),
		"young singleton dir, refused socket":  plantSingleton(t, false),
		"young profile without a lock":         plantProfile(t, ""),
		"profile locked on another host":       plantProfile(t, "other-"+host+"-"+strconv.Itoa(deadPid(t))),
		"symlink named like a singleton dir":   link,
		"stale-looking target of that symlink": linkTarget,
		"file named like a profile":            fileNamedLikeProfile,
	}
	age(t, kept["old singleton dir, listening socket"])
	if os.Geteuid() == 0 { // only root can make a directory someone else owns
		foreign := plantDir(t, singletonDirPrefix+"*")
		age(t, foreign)
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		kept["another user's old empty singleton dir"] = foreign
	}

	launch(t, Options{})
	for what, p := range stale {
		if exists(p) {
			t.Errorf("%s (%s) survived the next launch", what, p)
		}
	}
	for what, p := range kept {
		if !exists(p) {
			t.Errorf("%s (%s) was removed", what, p)
		}
	}
	if !exists(filepath.Join(liveBrowser.ProfileDir(), "SingletonLock")) {
		t.Error("the live browser's SingletonLock is gone")
	}
	if v := browserVersion(t, liveBrowser); v == "" {
		t.Error("the live browser no longer answers")
	}
}

// BenchmarkSweepNothingStale measures one sweep of a temp directory of 1000 unrelated
// entries and 10 profiles locked by a live process that names them (read like a live
// browser's: readlink, /proc cmdline), the common case at every launch.
func BenchmarkSweepNothingStale(b *testing.B) {
	dir := b.TempDir()
	host, _ := os.Hostname()
	for i := range 1000 {
		if err := os.WriteFile(filepath.Join(dir, "other-"+strconv.Itoa(i)), nil, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	holder := exec.Command("/bin/sh", "-c", "read x", "sh")
	var profiles []string
	for range 10 {
		p, err := os.MkdirTemp(dir, profilePattern)
		if err != nil {
			b.Fatal(err)
		}
		profiles = append(profiles, p)
		holder.Args = append(holder.Args, "--user-data-dir="+p)
	}
	stdin, err := holder.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = holder.Wait() }()
	for _, p := range profiles {
		if err := os.Symlink(host+"-"+strconv.Itoa(holder.Process.Pid), filepath.Join(p, "SingletonLock")); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if removed := sweepStale(dir); len(removed) != 0 {
			b.Fatalf("removed %v", removed)
		}
	}
}
