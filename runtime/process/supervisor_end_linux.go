package process

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// killDescendants SIGKILLs every live process whose parent chain leads to this one, and
// returns how many it found. As a subreaper this process is the parent of every orphan of
// its tree, so the chains reach everything it started, also what called setsid or
// double-forked. Each process is pinned (a pidfd) and its parent read again before the
// signal, so a pid reused since the scan is never signalled unless it is ours too.
func killDescendants() int {
	me := os.Getpid()
	stats := map[int]procStat{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid > 1 && pid != me {
			if st, ok := readProcStat(pid); ok {
				stats[pid] = st
			}
		}
	}
	ours := map[int]bool{}
	var isOurs func(pid, depth int) bool
	isOurs = func(pid, depth int) bool {
		if v, ok := ours[pid]; ok {
			return v
		}
		st, ok := stats[pid]
		v := ok && depth < len(stats) && (st.ppid == me || isOurs(st.ppid, depth+1))
		ours[pid] = v
		return v
	}
	n := 0
	for pid, st := range stats {
		if st.gone() || !isOurs(pid, 0) {
			continue
		}
		n++
		p, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		if now, ok := readProcStat(pid); ok && (now.ppid == me || ours[now.ppid]) {
			_ = p.Signal(syscall.SIGKILL)
		}
		_ = p.Release()
	}
	return n
}

// removeRegistered removes a directory registered with RemoveOnAbruptEnd: only an absolute,
// clean path other than the root, with one retry (a helper killed in the middle of a write
// can refill a directory during the first pass).
func removeRegistered(dir string, remove func(string) error) {
	if !filepath.IsAbs(dir) || filepath.Clean(dir) != dir || dir == "/" {
		return
	}
	if remove(dir) != nil {
		time.Sleep(budgets.ProfileRemoveRetry)
		_ = remove(dir)
	}
}
