//go:build linux

package process

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// This machine's pid 1 does not reap orphans, so a killed grandchild would stay a zombie in
// its group forever and kill(-pgid, 0) would never say ESRCH. The test binary therefore
// adopts orphans (PR_SET_CHILD_SUBREAPER) and reaps the ones that are not Start's children.

const prSetChildSubreaper = 36

func becomeSubreaper() error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// procStat is the part of /proc/PID/stat the tests need.
type procStat struct {
	pid, ppid, pgid int
	state           byte
	startTime       uint64 // clock ticks since boot; tells a reused pid apart
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	// comm may hold spaces and parentheses: fields start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return procStat{}, false
	}
	st := procStat{pid: pid, state: f[0][0]}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgid, _ = strconv.Atoi(f[2])
	st.startTime, _ = strconv.ParseUint(f[19], 10, 64)
	return st, true
}

func (s procStat) live() bool { return s.state != 'Z' && s.state != 'X' }

func allStats() []procStat {
	ents, _ := os.ReadDir("/proc")
	var out []procStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out = append(out, st)
		}
	}
	return out
}

// reapAdoptedOrphans reaps zombies we adopted. Start's children lead their own group
// (pgid == pid) and belong to their reaper goroutine, so only non-leaders are taken, plus the
// pids the caller names as known orphans.
func reapAdoptedOrphans(known ...int) {
	me := os.Getpid()
	for _, st := range allStats() {
		if st.ppid != me || st.live() {
			continue
		}
		if st.pgid != st.pid || containsInt(known, st.pid) {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(st.pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// liveMembers lists the live processes in group pgid.
func liveMembers(pgid int) []int {
	var pids []int
	for _, st := range allStats() {
		if st.pgid == pgid && st.live() {
			pids = append(pids, st.pid)
		}
	}
	return pids
}

// pollUntil checks cond every 10 ms until it holds or limit passes.
func pollUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupGone reports whether kill(-pgid, 0) says no process is left in the group.
func groupGone(pgid int) bool {
	return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}

// requireGroupGone waits (bounded) until the group is empty both by kill(2) and by /proc.
func requireGroupGone(t *testing.T, pgid int, limit time.Duration) {
	t.Helper()
	ok := pollUntil(limit, func() bool {
		reapAdoptedOrphans()
		return groupGone(pgid) && len(liveMembers(pgid)) == 0
	})
	if !ok {
		t.Fatalf("process group %d still has members after %s: live %v, kill(-pgid,0)=%v",
			pgid, limit, liveMembers(pgid), syscall.Kill(-pgid, 0))
	}
}
