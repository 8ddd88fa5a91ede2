package process

import (
	"sync"
	"syscall"
)

// live is every started child whose group has not yet been seen gone by Kill: what KillAll
// signals.
var live struct {
	sync.Mutex
	procs map[*Process]struct{}
}

func register(p *Process) {
	live.Lock()
	defer live.Unlock()
	if live.procs == nil {
		live.procs = map[*Process]struct{}{}
	}
	live.procs[p] = struct{}{}
}

func unregister(p *Process) {
	live.Lock()
	defer live.Unlock()
	delete(live.procs, p)
}

// KillAll SIGKILLs the process group of every child this package started that has not been
// stopped (Stop or Kill returned nil), and returns at once: it waits for nothing and reaps
// nothing. It is for a program about to exit without its orderly stop (a second interrupt):
// Pdeathsig then reaches each direct child, but not what a child left running in its group
// (the node under `sh -c "npm start"`, a hook's background job), which only a group kill
// ends, nor what left the group (setsid, a daemon), which only the TrackTree scan finds.
func KillAll() {
	live.Lock()
	procs := make([]*Process, 0, len(live.procs))
	for p := range live.procs {
		procs = append(procs, p)
	}
	live.Unlock()
	for _, p := range procs {
		_ = p.signalGroup(syscall.SIGKILL)
		// With Spec.TrackTree, also what left the group; a second pass catches a process
		// forked between a scan and its kill, a third one forked during the second.
		for range 3 {
			if signalTree(p.marker, syscall.SIGKILL) == 0 {
				break
			}
		}
	}
}
