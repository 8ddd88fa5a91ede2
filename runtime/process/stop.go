package process

import (
	"fmt"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// killReapWait bounds the wait for the reap after SIGKILL; only a process stuck in the
// kernel (uninterruptible sleep) outlasts it.
var killReapWait = budgets.ProcessStopGrace().Default

// Stop sends SIGTERM to the child's process group, waits up to grace for the reap, then
// SIGKILLs the group, grandchildren included even when the child itself is already gone,
// and waits (bounded) for the reap. grace <= 0 means budgets.ProcessStopGrace().Default; a
// grace above that budget's ceiling is cut to it, since teardown cannot be refused.
//
// Stop is idempotent and safe for concurrent use: every call returns the first call's
// result, which is an error only if the child could not be reaped in time.
func (p *Process) Stop(grace time.Duration) error {
	p.stopOnce.Do(func() { p.stopErr = p.stop(stopGrace(grace)) })
	return p.stopErr
}

func (p *Process) stop(grace time.Duration) error {
	deadline := time.Now().Add(grace)
	if !p.reaped() {
		_ = p.signalGroup(syscall.SIGTERM)
		signalTree(p.marker, syscall.SIGTERM)
		t := time.NewTimer(grace)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	} else if p.marker != "" {
		signalTree(p.marker, syscall.SIGTERM) // what a finished hook left running
	}
	if p.marker != "" {
		// Descendants that left the group get what is left of the same grace to end.
		awaitTreeGone(p.marker, deadline)
	}
	return p.Kill()
}

// Kill SIGKILLs the child's process group now (and, with Spec.TrackTree, every descendant
// that left it) and waits (bounded) for the child's reap and for every other member of the
// group and the tree to be gone. It may be called at any time, also during or after Stop.
func (p *Process) Kill() error {
	deadline := time.Now().Add(killReapWait)
	sigErr := p.signalGroup(syscall.SIGKILL)
	treeErr := killTree(p.marker, deadline)
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-p.done:
		// The child is reaped; give the rest of its group the same bound to die, so a
		// caller that returns from Stop can rely on nothing of it still running.
		for p.pgid > 1 && groupHasLive(p.pgid) {
			select {
			case <-t.C:
				return fmt.Errorf("process: group %d still running %s after SIGKILL", p.pgid, killReapWait)
			case <-time.After(budgets.ProcessPoll):
			}
		}
		if treeErr != nil {
			return treeErr // still registered: KillAll may try again
		}
		unregister(p) // gone: KillAll must not signal its group id again
		return nil
	case <-t.C:
		if sigErr != nil {
			return fmt.Errorf("process: kill pid %d: %w", p.pid, sigErr)
		}
		return fmt.Errorf("process: pid %d not reaped within %s of SIGKILL", p.pid, killReapWait)
	}
}

func stopGrace(grace time.Duration) time.Duration {
	b := budgets.ProcessStopGrace()
	switch {
	case grace <= 0:
		return b.Default
	case grace > b.Ceiling:
		return b.Ceiling
	default:
		return grace
	}
}
