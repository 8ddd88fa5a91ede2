package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// TestKillNineLeavesNothing: `kill -9` of `fastbrowser run` in the middle of a scenario
// leaves nothing it started running, not even what its managed server forked (a grandchild
// in the server's group, and that one's setsid child), and no temporary profile: its
// supervisor sees it die, kills every descendant and removes the profile, all within the
// stop grace. Neither Pdeathsig (direct children only) nor the run's own stop (it gets no
// chance) can do that.
func TestKillNineLeavesNothing(t *testing.T) {
	profilesBefore := profileDirs()
	var pidDir string
	server := func(bin, addr, dir string) []string {
		pidDir = dir
		tree := fmt.Sprintf(`/bin/sh -c '/usr/bin/setsid /bin/sleep 300 & echo $! > %[1]s/greatgrandchild; exec /bin/sleep 300' &
echo $! > %[1]s/grandchild
`, dir)
		return []string{"/bin/sh", "-c", tree + fmt.Sprintf("exec %s fixture serve --addr %s", bin, addr)}
	}
	r := startInterruptRunWith(t, server, []string{"/bin/sh", "-c", "true"})
	r.waitMidway(t)
	tree := treePids(t, pidDir)
	for pid := range proctest.Cmdlines("fixture serve --addr " + r.addr) {
		tree = append(tree, pid)
	}
	// The browser's process group, its profile, and the supervisor (if there is one).
	var groups []int
	var profile string
	for pid, cmd := range proctest.Cmdlines("--user-data-dir=") {
		if st, ok := proctest.ReadStat(pid); ok && st.Pgid == pid && r.marks(pid) {
			groups = append(groups, pid)
			profile = userDataDir(cmd)
		}
	}
	if len(groups) == 0 || profile == "" {
		t.Fatalf("no browser of the run found:\n  %s", r.describe(r.procs()))
	}
	for pid := range proctest.Cmdlines("--fastbrowser-process-supervisor") {
		if st, ok := proctest.ReadStat(pid); ok && st.PPid == r.cmd.Process.Pid {
			tree = append(tree, pid)
		}
	}

	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-r.exited
	grace := budgets.ProcessStopGrace().Default
	var left []int
	if !proctest.PollUntil(grace, func() bool {
		live := map[int]bool{}
		for _, pid := range tree {
			live[pid] = proctest.Alive(pid)
		}
		for _, g := range groups {
			for _, pid := range proctest.LiveMembers(g) {
				live[pid] = true
			}
		}
		for _, pid := range r.procs() {
			live[pid] = true
		}
		left = left[:0]
		for pid, alive := range live {
			if alive {
				left = append(left, pid)
			}
		}
		_, err := os.Stat(profile)
		return len(left) == 0 && os.IsNotExist(err)
	}) {
		_, err := os.Stat(profile)
		t.Errorf("%s after kill -9 of the run: still running\n  %s\nprofile %s: %v", grace, r.describe(left), profile, err)
	}
	for p := range profileDirs() {
		if !profilesBefore[p] {
			_ = os.RemoveAll(p)
		}
	}
}

// treePids reads the grandchild's and great-grandchild's pids the server wrote to dir.
func treePids(t *testing.T, dir string) []int {
	t.Helper()
	var pids []int
	for _, name := range []string{"grandchild", "greatgrandchild"} {
		var pid int
		proctest.PollUntil(10*budgets.ProcessStopGrace().Default, func() bool {
			b, err := os.ReadFile(filepath.Join(dir, name))
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil && pid > 1
		})
		if !proctest.Alive(pid) {
			t.Fatalf("the server's %s (%d) is not running", name, pid)
		}
		pids = append(pids, pid)
	}
	return pids
}

// marks reports whether pid carries the run's environment marker.
func (r *interruptRun) marks(pid int) bool {
	for _, p := range r.procs() {
		if p == pid {
			return true
		}
	}
	return false
}

func userDataDir(cmdline string) string {
	for _, f := range strings.Fields(cmdline) {
		if v, ok := strings.CutPrefix(f, "--user-data-dir="); ok {
			return v
		}
	}
	return ""
}
