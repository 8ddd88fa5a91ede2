//go:build !linux

package process

import (
	"errors"
	"os"
	"syscall"
)

// Outside Linux there is no Pdeathsig and no portable process group here; this fallback only
// keeps the package building, signalling the direct child alone.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func groupOf(int) int { return 0 }

func (p *Process) signalGroup(sig syscall.Signal) error {
	if p.reaped() {
		return nil
	}
	proc, err := os.FindProcess(p.pid)
	if err != nil {
		return err
	}
	if err := proc.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	return nil
}

// groupHasLive has no group to ask about outside Linux.
func groupHasLive(int) bool { return false }
