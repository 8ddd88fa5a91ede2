package process

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// sysProcAttr puts the child in its own process group, so one signal reaches everything it
// spawns, and asks the kernel to SIGKILL it if our forking thread dies (see own).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// groupOf is the group Setpgid gave the child: its own pid.
func groupOf(pid int) int { return pid }

// signalGroup signals every process in the child's group. A group id <= 1 would mean "our
// own group" or "every process we may signal", so it is never used. ESRCH means the group
// is already empty, which is what the caller wanted.
//
// Accepted risk, shared by every launcher that kills by group: once the child is reaped and
// its group has emptied, the kernel may give the id to a new group, which a late Stop would
// then signal. That needs the pid space to wrap in between.
func (p *Process) signalGroup(sig syscall.Signal) error {
	if p.pgid <= 1 {
		return errors.New("process: refusing to signal process group <= 1")
	}
	err := syscall.Kill(-p.pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// groupHasLive reports whether any process of the group is still running (zombies, which
// only wait for their parent to collect them, do not count). It reads /proc: a SIGKILL is
// delivered asynchronously, so "signal sent" is not yet "group gone".
func groupHasLive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: the fields after the last ")".
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			return true
		}
	}
	return false
}
