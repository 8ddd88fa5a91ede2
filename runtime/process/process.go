package process

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// Process is one started child. Its exported pipes are nil unless the Spec asked for them.
type Process struct {
	// Stdin is the write end of the child's stdin when Spec.Stdin was set. Closing it sends
	// EOF; it is closed by the package once the child has been reaped.
	Stdin io.WriteCloser
	// Stdout is the read end of the child's stdout when Spec.Stdout was set. Read it to EOF
	// promptly: once the child has been reaped it stays readable for the stop grace (so a
	// grandchild holding it cannot hang the reader) and is then closed.
	Stdout io.ReadCloser

	pid    int
	pgid   int    // the child's process group (its own pid) or 0 where groups are not used
	marker string // "NAME=1" in the environment of the child's whole tree (Spec.TrackTree), or ""

	done     chan struct{}   // closed by the reaper after the child is reaped
	drained  <-chan struct{} // closed when the package's drains have ended
	exitCode int             // set before done closes: the exit status, -1 if a signal ended it
	signal   string          // set before done closes: the signal that ended it, or ""

	stopOnce sync.Once
	stopErr  error
}

// Start starts the child described by spec. It returns once the child has exec'd (or failed
// to), with its output already being drained. While a supervisor is up (Supervise) the
// supervisor forks it; otherwise this process does.
func Start(spec Spec) (*Process, error) { return startOn(spec, supervisorFor) }

// startOn is Start with the supervisor (nil: none) that sup returns.
func startOn(spec Spec, sup func() *supervisor) (*Process, error) {
	if spec.Path == "" {
		return nil, errors.New("process: empty Path")
	}
	path, err := filepath.Abs(spec.Path)
	if err != nil {
		return nil, fmt.Errorf("process: resolve %s: %w", spec.Path, err)
	}
	var marker string
	env := spec.Env
	if spec.TrackTree {
		if marker = newMarker(); marker != "" {
			if env == nil {
				env = os.Environ()
			}
			env = append(env[:len(env):len(env)], marker)
		}
	}
	pipes, err := openPipes(spec)
	if err != nil {
		return nil, fmt.Errorf("process: start %s: %w", spec.Path, err)
	}
	p := &Process{done: make(chan struct{}), marker: marker}
	err = errSupervisorLost
	if s := sup(); s != nil {
		err = s.start(p, spec, path, env, pipes)
	}
	if errors.Is(err, errSupervisorLost) {
		err = startDirect(p, spec, path, env, pipes)
	}
	if err != nil {
		pipes.closeAll()
		return nil, fmt.Errorf("process: start %s: %w", spec.Path, err)
	}
	pipes.closeChildEnds()
	p.Stdin, p.Stdout = pipes.callerStdin(), pipes.callerStdout()
	p.drained = pipes.startDrains(spec)
	return p, nil
}

// startDirect forks the child from this process, on the reaper's own locked thread (own).
func startDirect(p *Process, spec Spec, path string, env []string, pipes *pipeSet) error {
	// Built by hand rather than with exec.Command, which would search PATH for a bare name.
	cmd := &exec.Cmd{
		Path:        path,
		Args:        append([]string{spec.Path}, spec.Args...),
		Dir:         spec.Dir,
		Env:         env,
		SysProcAttr: sysProcAttr(),
		ExtraFiles:  spec.ExtraFiles,
	}
	pipes.attach(cmd)
	started := make(chan error, 1)
	go p.own(cmd, pipes, started)
	return <-started
}

// Pid is the child's process id.
func (p *Process) Pid() int { return p.pid }

// Done is closed when the child has been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Drained is closed once the package has read the last of the output it drains (stderr,
// and stdout unless the caller owns it): every writer closed its end, or the read ends were
// closed the stop grace after the reap because a writer outlived the child. After Stop,
// which returns once the whole group is gone, it closes promptly; then OutputSink has been
// offered, and Capture has been given, everything.
func (p *Process) Drained() <-chan struct{} { return p.drained }

// ExitCode is the child's exit status once Done is closed; -1 if it was killed by a signal
// or has not been reaped yet.
func (p *Process) ExitCode() int {
	if !p.reaped() {
		return -1
	}
	return p.exitCode
}

// Signal names the signal that ended the child ("killed", "terminated"), or "" if it exited
// by itself or has not been reaped yet.
func (p *Process) Signal() string {
	if !p.reaped() {
		return ""
	}
	return p.signal
}

func (p *Process) reaped() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}
