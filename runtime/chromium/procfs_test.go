//go:build linux

package chromium

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// This machine's pid 1 does not reap orphans, so Chromium's killed helpers would stay
// zombies in the browser's group forever and kill(-pgid, 0) would never say ESRCH. The test
// binary therefore adopts orphans (PR_SET_CHILD_SUBREAPER) and reaps those that are not
// process.Start's own children. (Same helpers as runtime/process's tests.)

const prSetChildSubreaper = 36

func becomeSubreaper() error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

type procStat struct {
	pid, ppid, pgid int
	state           byte
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
	if len(f) < 3 {
		return procStat{}, false
	}
	st := procStat{pid: pid, state: f[0][0]}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgid, _ = strconv.Atoi(f[2])
	return st, true
}

func (s procStat) live() bool { return s.state != 'Z' && s.state != 'X' }

func allStats() []procStat {
	ents, _ := os.ReadDir("/proc")
	var out []procStat
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if st, ok := readStat(pid); ok {
				out = append(out, st)
			}
		}
	}
	return out
}

// reapAdoptedOrphans reaps zombies we adopted. process.Start's children lead their own group
// (pgid == pid) and belong to their reaper goroutine, so only non-leaders are taken.
func reapAdoptedOrphans() {
	me := os.Getpid()
	for _, st := range allStats() {
		if st.ppid == me && !st.live() && st.pgid != st.pid {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(st.pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

func liveMembers(pgid int) []int {
	var pids []int
	for _, st := range allStats() {
		if st.pgid == pgid && st.live() {
			pids = append(pids, st.pid)
		}
	}
	return pids
}

func alive(pid int) bool {
	st, ok := readStat(pid)
	return ok && st.live()
}

// cmdlines returns the command line of every live process whose command line contains s.
func cmdlines(s string) map[int]string {
	out := map[int]string{}
	for _, st := range allStats() {
		if !st.live() {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(st.pid) + "/cmdline")
		if err != nil {
			continue
		}
		if cmd := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(cmd, s) {
			out[st.pid] = cmd
		}
	}
	return out
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

// requireGroupGone waits (bounded) until the group is empty by kill(2) and by /proc.
func requireGroupGone(t *testing.T, pgid int, limit time.Duration) {
	t.Helper()
	ok := pollUntil(limit, func() bool {
		reapAdoptedOrphans()
		return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) && len(liveMembers(pgid)) == 0
	})
	if !ok {
		t.Fatalf("process group %d still has members after %s: live %v, kill(-pgid,0)=%v",
			pgid, limit, liveMembers(pgid), syscall.Kill(-pgid, 0))
	}
}
