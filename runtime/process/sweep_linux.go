package process

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// identityVar names, in every supervised child's environment (inherited by its whole tree),
// the supervisor that started it, as "PID:STARTTIME": a pid alone could be reused, the
// pair names one process for good. A nested supervisor's children carry only the inner one
// (the last entry wins at exec); the inner supervisor carries the outer one.
const identityVar = "FASTBROWSER_SUPERVISOR"

type identity struct {
	pid   int
	start uint64
}

func (id identity) String() string {
	return strconv.Itoa(id.pid) + ":" + strconv.FormatUint(id.start, 10)
}

func parseIdentity(s string) (identity, bool) {
	p, st, ok := strings.Cut(s, ":")
	pid, err1 := strconv.Atoi(p)
	start, err2 := strconv.ParseUint(st, 10, 64)
	return identity{pid, start}, ok && err1 == nil && err2 == nil && pid > 1
}

func selfIdentity() (identity, bool) {
	st, ok := readProcStat(os.Getpid())
	return identity{os.Getpid(), st.startTime}, ok
}

// alive reports whether the supervisor id names is still running (a zombie is not).
func (id identity) alive() bool {
	st, ok := readProcStat(id.pid)
	return ok && !st.gone() && st.startTime == id.start
}

// markedBy returns the supervisor pid's environment names.
func markedBy(pid int) (identity, bool) {
	prefix := []byte(identityVar + "=")
	e, ok := environEntry(pid, len(prefix)+48, func(e []byte) bool { return bytes.HasPrefix(e, prefix) })
	if !ok {
		return identity{}, false
	}
	return parseIdentity(string(e[len(prefix):]))
}

// sweepOrphans SIGKILLs, within budgets.SupervisorSweep, every process of this user whose
// environment names a supervisor that is no longer running, and the process group each
// such process leads: what a supervisor killed together with its parent (a crashed host)
// could not end. It returns the pids it killed.
func sweepOrphans(self identity) []int {
	deadline := time.Now().Add(budgets.SupervisorSweep)
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	uid := uint32(os.Geteuid())
	dead := map[identity]bool{}
	var killed []int
	for _, e := range ents {
		if time.Now().After(deadline) {
			break
		}
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 || pid == self.pid || !ownedBy(pid, uid) {
			continue
		}
		id, ok := markedBy(pid)
		if !ok || id == self {
			continue
		}
		d, known := dead[id]
		if !known {
			d = !id.alive()
			dead[id] = d
		}
		if d && killOrphan(pid, id) {
			killed = append(killed, pid)
		}
	}
	return killed
}

func ownedBy(pid int, uid uint32) bool {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == uid
}

// killOrphan SIGKILLs pid, pinned and checked again (a pid reused since the scan is never
// signalled), and first the group it leads: while the leader lives its group id cannot name
// another group. The group holds what its environment may not show (a browser's helpers
// overwrite theirs).
func killOrphan(pid int, id identity) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	if got, ok := markedBy(pid); !ok || got != id {
		return false
	}
	if st, ok := readProcStat(pid); ok && st.pgrp == pid {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	return p.Signal(syscall.SIGKILL) == nil
}
