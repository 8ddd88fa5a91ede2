//go:build linux

package proctest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const prSetChildSubreaper = 36

// BecomeSubreaper makes the calling process adopt its orphaned descendants
// (PR_SET_CHILD_SUBREAPER). Call it from TestMain, then reap what it adopts with
// ReapAdoptedOrphans.
func BecomeSubreaper() error {
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// Stat is the part of /proc/PID/stat the tests need.
type Stat struct {
	Pid, PPid, Pgid int
	State           byte
	StartTime       uint64 // clock ticks since boot; tells a reused pid apart
}

// Live reports whether the process is neither a zombie nor dead.
func (s Stat) Live() bool { return s.State != 'Z' && s.State != 'X' }

// ReadStat reads /proc/PID/stat; ok is false when pid is gone or its stat cannot be parsed.
func ReadStat(pid int) (st Stat, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, false
	}
	// comm may hold spaces and parentheses: fields start after the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return Stat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return Stat{}, false
	}
	st = Stat{Pid: pid, State: f[0][0]}
	st.PPid, _ = strconv.Atoi(f[1])
	st.Pgid, _ = strconv.Atoi(f[2])
	st.StartTime, _ = strconv.ParseUint(f[19], 10, 64)
	return st, true
}

func allStats() []Stat {
	ents, _ := os.ReadDir("/proc")
	var out []Stat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := ReadStat(pid); ok {
			out = append(out, st)
		}
	}
	return out
}

// Alive reports whether pid exists and is neither a zombie nor dead.
func Alive(pid int) bool {
	st, ok := ReadStat(pid)
	return ok && st.Live()
}

// ReapAdoptedOrphans reaps the zombies this process adopted as subreaper. Children started
// through runtime/process lead their own group (pgid == pid) and belong to their reaper
// goroutine, so only non-leaders are taken, plus the pids the caller names as known orphans
// (an adopted group leader, for one). It never waits on -1 and never blocks.
func ReapAdoptedOrphans(known ...int) {
	me := os.Getpid()
	for _, st := range allStats() {
		if st.PPid != me || st.Live() {
			continue
		}
		if st.Pgid != st.Pid || containsInt(known, st.Pid) {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(st.Pid, &ws, syscall.WNOHANG, nil)
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

// LiveMembers lists the live processes in group pgid.
func LiveMembers(pgid int) []int {
	var pids []int
	for _, st := range allStats() {
		if st.Pgid == pgid && st.Live() {
			pids = append(pids, st.Pid)
		}
	}
	return pids
}

// Cmdlines returns the command line (NULs as spaces) of every live process whose command
// line contains substr.
func Cmdlines(substr string) map[int]string {
	out := map[int]string{}
	for _, st := range allStats() {
		if !st.Live() {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(st.Pid) + "/cmdline")
		if err != nil {
			continue
		}
		if cmd := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(cmd, substr) {
			out[st.Pid] = cmd
		}
	}
	return out
}

// PollUntil checks cond every 10 ms until it holds or limit passes, and reports whether it
// held.
func PollUntil(limit time.Duration, cond func() bool) bool {
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

// RequireGroupGone waits at most limit, reaping adopted orphans, until group pgid is empty
// both by kill(2) and by /proc, and fails t at once if it is not.
func RequireGroupGone(t testing.TB, pgid int, limit time.Duration) {
	t.Helper()
	ok := PollUntil(limit, func() bool {
		ReapAdoptedOrphans()
		return groupGone(pgid) && len(LiveMembers(pgid)) == 0
	})
	if !ok {
		t.Fatalf("process group %d still has members after %s: live %v, kill(-pgid,0)=%v",
			pgid, limit, LiveMembers(pgid), syscall.Kill(-pgid, 0))
	}
}
