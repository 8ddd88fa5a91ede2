//go:build linux

package process

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// escapes is a child that leaves two processes outside its process group and session, and
// prints their pids, then waits: a `setsid sleep &` and a daemon that double-forked (fork,
// setsid, fork: the intermediate shell exits at once).
const escapes = `/usr/bin/setsid /bin/sleep 300 & echo $!
/usr/bin/setsid /bin/sh -c '/bin/sleep 300 & echo $!'
`

// startEscaping starts script (which must print two pids first) with TrackTree as asked,
// and returns the two escaped pids after checking they really left the child's group.
func startEscaping(t *testing.T, script string, track bool) (*Process, []int) {
	t.Helper()
	spec := sh(script)
	spec.Stdout, spec.TrackTree = true, track
	p := start(t, spec)
	r := bufio.NewReader(p.Stdout) // one reader for both lines: readPid reuses it
	var pids []int
	for range 2 {
		pid := readPid(t, r)
		// $! is known before the background child has called setsid: wait for it.
		var st proctest.Stat
		if !proctest.PollUntil(5*time.Second, func() bool {
			var ok bool
			st, ok = proctest.ReadStat(pid)
			return ok && st.Pgid != p.Pid()
		}) {
			t.Fatalf("pid %d did not leave group %d (stat %+v)", pid, p.Pid(), st)
		}
		pids = append(pids, pid)
	}
	t.Cleanup(func() { proctest.ReapAdoptedOrphans(pids...) })
	return p, pids
}

// requireGone waits (bounded: a KILLed process still has to exit) until none of pids lives.
func requireGone(t *testing.T, what string, pids []int) {
	t.Helper()
	if !proctest.PollUntil(2*time.Second, func() bool {
		proctest.ReapAdoptedOrphans(pids...)
		for _, pid := range pids {
			if proctest.Alive(pid) {
				return false
			}
		}
		return true
	}) {
		t.Fatalf("%s: processes that left the group still live: %v", what, pids)
	}
}

func TestStopEndsDescendantsThatLeftTheGroup(t *testing.T) {
	t.Parallel()
	p, escaped := startEscaping(t, escapes+"exec /bin/sleep 300", true)
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	// Stop returns once the tree is gone: checked at once, with no grace.
	for _, pid := range escaped {
		if proctest.Alive(pid) {
			t.Errorf("pid %d (left the group) still alive after Stop", pid)
		}
	}
}

// A hook that started a daemon and exited by itself: Stop after the exit still ends it.
func TestStopAfterExitEndsDescendantsThatLeftTheGroup(t *testing.T) {
	t.Parallel()
	p, escaped := startEscaping(t, escapes+"exit 0", true)
	waitDone(t, p, 5*time.Second)
	for _, pid := range escaped {
		if !proctest.Alive(pid) {
			t.Fatalf("pid %d died with its parent; the test proves nothing", pid)
		}
	}
	if err := p.Stop(0); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	requireGone(t, "after Stop", escaped)
}

// A descendant that ignores TERM outside the group is KILLed when the grace ends.
func TestStopKillsDescendantIgnoringTerm(t *testing.T) {
	t.Parallel()
	p, escaped := startEscaping(t, `trap '' TERM; `+escapes+"exec /bin/sleep 300", true)
	if err := p.Stop(300 * time.Millisecond); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	requireGone(t, "after Stop", escaped)
}

// Stopping one tracked child never touches another's tree (run --jobs: several servers).
func TestStopSparesOtherTrees(t *testing.T) {
	t.Parallel()
	a, aPids := startEscaping(t, escapes+"exec /bin/sleep 300", true)
	b, bPids := startEscaping(t, escapes+"exec /bin/sleep 300", true)
	if err := a.Stop(time.Second); err != nil {
		t.Fatalf("Stop a: %v", err)
	}
	requireGone(t, "a", aPids)
	for _, pid := range append(bPids, b.Pid()) {
		if !proctest.Alive(pid) {
			t.Errorf("pid %d of the other child died when the first was stopped", pid)
		}
	}
	if err := b.Stop(time.Second); err != nil {
		t.Fatalf("Stop b: %v", err)
	}
	requireGone(t, "b", bPids)
}

// The marker is one environment entry of the child, of its own, and inherited.
func TestTrackTreeMarksEnvironment(t *testing.T) {
	t.Parallel()
	spec := Spec{Path: "/bin/sh", Args: []string{"-c", "env; echo END; exec /bin/sleep 300"}, Stdout: true, TrackTree: true,
		Env: []string{"PATH=/usr/bin:/bin", markerPrefix + "inherited=1"}}
	p := start(t, spec)
	var names []string
	r := bufio.NewReader(p.Stdout) // one reader for every line: readLine reuses it
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		line := readLine(t, r, 5*time.Second)
		if line == "END" {
			break
		}
		names = append(names, line)
	}
	mine := 0
	for _, n := range names {
		if strings.HasPrefix(n, markerPrefix) && n != markerPrefix+"inherited=1" {
			mine++
			if n != p.marker {
				t.Errorf("child's marker %q, Process has %q", n, p.marker)
			}
		}
	}
	if mine != 1 || !strings.Contains(strings.Join(names, " "), markerPrefix+"inherited=1") {
		t.Errorf("environment %q: want the inherited marker kept and exactly one new one", names)
	}
	// The child execs sleep right after END: hasMarker itself waits out that exec.
	if !hasMarker(p.Pid(), p.marker) || hasMarker(p.Pid(), newMarker()) || hasMarker(os.Getpid(), p.marker) {
		t.Error("hasMarker does not tell the child's marker apart")
	}
	_ = p.Stop(time.Second)
}

// awaitExec waits (bounded) until pid runs path, so a look at its environment is a look at
// the new program's.
func awaitExec(t *testing.T, pid int, path string) {
	t.Helper()
	want, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	if !proctest.PollUntil(5*time.Second, func() bool {
		got, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		return err == nil && got == want
	}) {
		t.Fatalf("pid %d does not run %s", pid, want)
	}
}

// hasMarker matches whole entries only, also across its read chunks and at either end.
func TestHasMarkerWholeEntries(t *testing.T) {
	t.Parallel()
	marker := newMarker()
	pad := strings.Repeat("P", 40<<10) // pushes the marker across the 32 KiB read boundary
	cases := []struct {
		env  []string
		want bool
	}{
		{[]string{marker}, true},
		{[]string{"A=1", marker}, true},
		{[]string{"BIG=" + pad, marker, "Z=1"}, true},
		{[]string{"BIG=" + pad[:32<<10-10], marker}, true},
		{[]string{"X" + marker}, false},
		{[]string{strings.TrimSuffix(marker, "=1") + "=2"}, false},
		{[]string{"A=1"}, false},
	}
	for i, c := range cases {
		p := start(t, Spec{Path: "/bin/sleep", Args: []string{"300"}, Env: c.env})
		awaitExec(t, p.Pid(), "/bin/sleep")
		if got := hasMarker(p.Pid(), marker); got != c.want {
			t.Errorf("case %d: hasMarker = %t, want %t", i, got, c.want)
		}
		_ = p.Kill()
	}
}

// KillAll (the second Ctrl-C) ends a tracked child's escaped descendants too, without
// waiting for them. Not parallel: KillAll reaches every child of the test binary.
func TestKillAllReachesDescendantsThatLeftTheGroup(t *testing.T) {
	p, escaped := startEscaping(t, escapes+"exec /bin/sleep 300", true)
	// Until the script's shell has exec'd sleep it may sit in its wait(-1) for the foreground
	// setsid, and a shell that collects the first escaped sleep's death before its own
	// SIGKILL lands would reap it there: the race was the test's, not KillAll's.
	awaitExec(t, p.Pid(), "/bin/sleep")
	KillAll()
	// It did not wait for what it signalled to be reaped: only this test reaps the escaped
	// processes (adopted as subreaper), and it has not yet.
	requireNotReaped(t, escaped)
	waitDone(t, p, 5*time.Second)
	requireGone(t, "after KillAll", escaped)
}
