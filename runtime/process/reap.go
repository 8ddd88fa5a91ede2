package process

import (
	"os/exec"
	"runtime"
)

// own starts the child and is its only waiter. It holds its OS thread for the child's whole
// life because Linux sends Pdeathsig when the thread that forked the child exits, not the
// process (golang/go #27505); a goroutine that ran on a borrowed thread could let the Go
// runtime retire that thread and kill a healthy child.
func (p *Process) own(cmd *exec.Cmd, pipes *pipeSet, started chan<- error) {
	runtime.LockOSThread()
	if err := cmd.Start(); err != nil {
		runtime.UnlockOSThread()
		started <- err
		return
	}
	p.pid = cmd.Process.Pid
	p.pgid = groupOf(p.pid)
	// Registered here, before anything can reap it: registered by Start after the start was
	// reported, a child that exited at once could be unregistered below first and then
	// stay in KillAll's set for good, its group id free for reuse (TestExitedLeavesKillAll
	// caught it once under load).
	register(p)
	started <- nil

	// Wait returns on the child's exit alone: its stdio are *os.File pipes we drain
	// ourselves, so os/exec starts no copy goroutines that a grandchild could hold open.
	_ = cmd.Wait()
	p.exitCode, p.signal = cmd.ProcessState.ExitCode(), signalName(cmd.ProcessState)
	p.reap()
	runtime.UnlockOSThread()
	pipes.afterReap()
}

// reap marks the child reaped, its exit status already set.
func (p *Process) reap() {
	// A marked child's tree may outlive its group: it stays in KillAll's set until Kill has
	// seen the tree gone.
	if p.marker == "" && (p.pgid <= 1 || !groupHasLive(p.pgid)) {
		unregister(p) // nothing of it is left for KillAll to reach
	}
	close(p.done)
}
