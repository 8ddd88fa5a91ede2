package process

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// A child started with Spec.TrackTree carries markerPrefix+<random hex>=1 in its
// environment. Every descendant inherits it, also through setsid() and a double fork that
// leave the process group, so after the group is signalled a scan of /proc/*/environ finds
// the rest (Jenkins' ProcessTreeKiller does the same). The random part keeps each child's
// tree apart from every other's, so stopping one server never touches another's processes;
// a name per child (not one shared name) survives a descendant that starts its own marked
// children, or an exec that drops duplicate names.
const markerPrefix = "FASTBROWSER_OWNER_"

// newMarker returns a fresh "NAME=1" environment entry.
func newMarker() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return markerPrefix + hex.EncodeToString(b[:]) + "=1"
}

// signalTree sends sig to every live process (not us, never pid <= 1) whose environment holds
// marker, and returns how many it signalled. Each is pinned first (os.FindProcess holds a
// pidfd where the kernel has one) and its environment read again after the pin, so a pid
// reused between the scan and the signal is never signalled: the pidfd names the process
// that was checked, and a process that died in between is not signalled at all.
func signalTree(marker string, sig syscall.Signal) int {
	if marker == "" {
		return 0
	}
	n := 0
	for _, pid := range markedPids(marker) {
		if signalMarked(pid, marker, sig) {
			n++
		}
	}
	return n
}

func signalMarked(pid int, marker string, sig syscall.Signal) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	defer p.Release()
	if !hasMarker(pid, marker) {
		return false
	}
	return p.Signal(sig) == nil
}

// markedPids scans /proc for processes whose environment holds marker.
func markedPids(marker string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 1 || pid == self {
			continue
		}
		if hasMarker(pid, marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killTree SIGKILLs every marked process until two scans a poll apart find none (a process
// may fork between a scan and its kill: one empty scan alone proves nothing), or until
// deadline.
func killTree(marker string, deadline time.Time) error {
	for empty := 0; empty < 2; {
		if signalTree(marker, syscall.SIGKILL) > 0 {
			empty = 0
		} else {
			empty++
		}
		if empty == 0 && time.Now().After(deadline) {
			return errors.New("process: descendants that left the group still running after SIGKILL")
		}
		time.Sleep(budgets.ProcessPoll)
	}
	return nil
}

// awaitTreeGone waits, until deadline, for every marked process to exit: two scans a poll
// apart that find none (see killTree).
func awaitTreeGone(marker string, deadline time.Time) {
	for empty := 0; empty < 2 && time.Now().Before(deadline); {
		if len(markedPids(marker)) > 0 {
			empty = 0
		} else {
			empty++
		}
		time.Sleep(budgets.TreePoll)
	}
}
