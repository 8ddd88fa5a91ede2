//go:build linux

package chromium

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// What a crash or SIGKILL leaves under the temp directory, a profile (fastbrowser-profile-*)
// and Chromium's singleton directory (org.chromium.Chromium.*), is swept at the next Launch.
// Only what is proven unused goes; anything in doubt stays.
// refusedMargin is how old a singleton directory whose socket refuses connections must be:
// Chromium binds the socket a moment before it listens, and no launch lasts longer than this.
var refusedMargin = budgets.BrowserStartup().Ceiling

// sweepStale removes, from dir (the temp directory), profiles and singleton directories that
// no live process uses. It never follows a symlink and touches only real directories owned
// by this user with exactly the expected name prefix. It returns what it removed.
func sweepStale(dir string) []string {
	began := time.Now()
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	host, _ := os.Hostname()
	var removed []string
	for seen := 0; seen < budgets.SweepEntries; {
		ents, err := d.ReadDir(256)
		for _, e := range ents {
			seen++
			if len(removed) >= budgets.SweepRemovals || time.Since(began) > budgets.ProfileSweep {
				return removed
			}
			path := filepath.Join(dir, e.Name())
			if staleEntry(path, e, host, began) && os.RemoveAll(path) == nil {
				removed = append(removed, path)
			}
		}
		if err != nil { // io.EOF: listed everything
			return removed
		}
	}
	return removed
}

// staleEntry decides for one entry of the temp directory.
func staleEntry(path string, e fs.DirEntry, host string, now time.Time) bool {
	name := e.Name()
	profile := strings.HasPrefix(name, profilePrefix)
	singleton := strings.HasPrefix(name, singletonDirPrefix)
	if !profile && !singleton || e.Type() != fs.ModeDir { // ReadDir's type is Lstat's: a symlink is no dir
		return false
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() || !ownedByUs(fi) {
		return false
	}
	if profile {
		return !isLive(path) && profileStale(path, fi, host, now)
	}
	return singletonStale(path, fi, now)
}

// RemoveStaleProfile removes dir, a profile Launch made, and the singleton directory its
// SingletonSocket names, when the launch sweep's rules prove no browser uses it: an absolute
// fastbrowser-profile-* path, a real directory owned by this user, whose SingletonLock names
// a gone (or non-Chromium) process on this host, or with no lock older than
// budgets.StaleProfileAge. Anything in doubt, or already gone, stays and is (false, nil). The
// session sweep uses it for the temporary profile of a session whose host died.
func RemoveStaleProfile(dir string) (bool, error) {
	if !filepath.IsAbs(dir) {
		return false, fmt.Errorf("chromium: profile %q is not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("chromium: inspect profile %s: %w", dir, err)
	}
	host, _ := os.Hostname()
	if !strings.HasPrefix(filepath.Base(dir), profilePrefix) || !staleEntry(dir, fs.FileInfoToDirEntry(fi), host, time.Now()) {
		return false, nil
	}
	if err := removeProfile(dir); err != nil {
		return false, err
	}
	return true, nil
}

// isLive reports whether this process launched the browser of profile and has not torn it down.
func isLive(profile string) bool {
	live.Lock()
	defer live.Unlock()
	return live.dirs[profile]
}

// profileStale applies Chromium's own rule for a stale SingletonLock (a symlink to
// "hostname-pid"): on this host and no process with that pid is a Chromium using this
// profile. A lock naming another host is never proven stale; with no lock at all, only age
// speaks (budgets.StaleProfileAge).
func profileStale(profile string, fi fs.FileInfo, host string, now time.Time) bool {
	target, err := os.Readlink(filepath.Join(profile, "SingletonLock"))
	if errors.Is(err, fs.ErrNotExist) {
		return now.Sub(fi.ModTime()) > budgets.StaleProfileAge
	}
	if err != nil { // not a symlink, unreadable: not Chromium's lock as we know it
		return false
	}
	i := strings.LastIndexByte(target, '-')
	if i <= 0 || host == "" || target[:i] != host {
		return false
	}
	pid, err := strconv.Atoi(target[i+1:])
	if err != nil || pid <= 0 {
		return false
	}
	return !browserUses(pid, profile)
}

// singletonStale: the directory's SingletonSocket (a real socket, never a link) refuses a
// connection or is missing, and the directory is older than the margin for that case. A
// socket that answers is a live browser, whoever's.
func singletonStale(dir string, fi fs.FileInfo, now time.Time) bool {
	age := now.Sub(fi.ModTime())
	sock := filepath.Join(dir, "SingletonSocket")
	sfi, err := os.Lstat(sock)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return age > budgets.StaleProfileAge
	case err != nil || sfi.Mode().Type() != fs.ModeSocket:
		return false
	case age <= refusedMargin:
		return false
	}
	c, err := net.DialTimeout("unix", sock, budgets.SingletonDial)
	if err == nil {
		_ = c.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT)
}

// ownedByUs reports whether fi belongs to this process's effective user.
func ownedByUs(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// usesProfile reports whether cmdline (NUL-separated argv) names profile as its
// --user-data-dir. A relative or differently spelled path that is the same directory also
// counts: in doubt, the profile is in use.
func usesProfile(cmdline []byte, profile string, pfi fs.FileInfo) bool {
	for _, arg := range strings.Split(string(cmdline), "\x00") {
		v, ok := strings.CutPrefix(arg, "--user-data-dir=")
		if !ok {
			continue
		}
		if v == profile || !filepath.IsAbs(v) {
			return true
		}
		if fi, err := os.Stat(v); err == nil && os.SameFile(fi, pfi) {
			return true
		}
	}
	return false
}

// browserUses reports whether process pid is running with profile as its user data
// directory. A pid that is gone, a zombie (empty cmdline) or another program is not; a
// process whose command line cannot be read is assumed to be (nothing is proven).
func browserUses(pid int, profile string) bool {
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	pfi, err := os.Lstat(profile)
	if err != nil {
		return true
	}
	return usesProfile(cmdline, profile, pfi)
}
