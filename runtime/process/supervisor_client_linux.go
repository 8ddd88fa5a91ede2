package process

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// supervisor is this process's side of a running supervisor (see Supervise).
type supervisor struct {
	conn   *controlConn
	pid    int
	exited chan struct{} // closed once the supervisor process has been reaped

	mu     sync.Mutex
	nextID uint64
	kids   map[uint64]*supervisedChild // started or starting, not yet reported reaped
	gone   bool                        // the control socket ended: no more starts
}

// supervisedChild is one child between its spawn request and its reap.
type supervisedChild struct {
	answer   chan *wireMsg    // started or failed, exactly once
	exit     chan childStatus // its end, exactly once
	answered bool             // under supervisor.mu: answer has been sent
}

// childStatus is how a supervised child ended.
type childStatus struct {
	code   int
	signal string
	lost   bool // the supervisor ended first: the child died by Pdeathsig, status unknown
}

func statusOf(ws syscall.WaitStatus) childStatus {
	st := childStatus{code: ws.ExitStatus()}
	if ws.Signaled() {
		st.signal = ws.Signal().String()
	}
	return st
}

// startSupervisor starts the supervisor process and waits (bounded) until it is ready, then
// tells it the directories already registered for removal.
func startSupervisor(opts SupervisorOptions, dirs []string) (*supervisor, error) {
	path := opts.Path
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("the process supervisor cannot be started: %w", err)
		}
		path = exe
	}
	cc, theirs, err := controlPair()
	if err != nil {
		return nil, fmt.Errorf("the process supervisor cannot be started: %w", err)
	}
	s := &supervisor{conn: cc, exited: make(chan struct{}), kids: map[uint64]*supervisedChild{}}
	started := make(chan error, 1)
	go s.own(path, theirs, started)
	err = <-started
	_ = theirs.Close()
	if err != nil {
		_ = cc.close()
		return nil, fmt.Errorf("the process supervisor cannot be started: %w", err)
	}
	ready := make(chan error, 1)
	go func() {
		m, files, err := cc.receive()
		closeFiles(files...)
		if err == nil && m.Kind != msgReady {
			err = fmt.Errorf("it said %q first", m.Kind)
		}
		ready <- err
	}()
	t := time.NewTimer(budgets.SupervisorAnswer)
	defer t.Stop()
	select {
	case err = <-ready:
	case <-t.C:
		err = fmt.Errorf("not ready within %s", budgets.SupervisorAnswer)
	}
	if err != nil {
		s.abandon()
		_ = cc.close()
		return nil, fmt.Errorf("the process supervisor did not come up: %w", err)
	}
	go s.readLoop()
	for _, d := range dirs {
		s.tell(msgRemove, d)
	}
	return s, nil
}

// own starts the supervisor and is its only waiter, on an OS thread locked for the
// supervisor's whole life: its Pdeathsig (SIGTERM, which it handles by ending everything)
// fires when the forking thread exits (golang/go #27505), so the thread must live as long.
func (s *supervisor) own(path string, theirs *os.File, started chan<- error) {
	runtime.LockOSThread()
	cmd := &exec.Cmd{
		Path:       path,
		Args:       []string{path, supervisorArg, strconv.Itoa(os.Getpid())},
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{theirs},
		// Its own group: a terminal's Ctrl-C or a signal to our group is ours to handle in
		// order, and must not make it kill everything at once.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM},
	}
	if err := cmd.Start(); err != nil {
		runtime.UnlockOSThread()
		started <- err
		return
	}
	s.pid = cmd.Process.Pid
	started <- nil
	_ = cmd.Wait()
	close(s.exited)
	runtime.UnlockOSThread()
}

// start asks the supervisor to start the child and waits (bounded) for its answer.
func (s *supervisor) start(p *Process, spec Spec, path string, env []string, pipes *pipeSet) error {
	dir := spec.Dir
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		dir = abs
	}
	if env == nil {
		// What os/exec does for an inherited environment, which the supervisor's is not.
		env = os.Environ()
		if dir != "" {
			env = append(env, "PWD="+dir)
		}
	}
	files := make([]*os.File, 0, 3+len(spec.ExtraFiles))
	if pipes.stdinR != nil {
		files = append(files, pipes.stdinR)
	}
	files = append(append(files, pipes.stdoutW, pipes.stderrW), spec.ExtraFiles...)
	k := &supervisedChild{answer: make(chan *wireMsg, 1), exit: make(chan childStatus, 1)}
	s.mu.Lock()
	if s.gone {
		s.mu.Unlock()
		return errSupervisorLost
	}
	s.nextID++
	id := s.nextID
	s.kids[id] = k
	s.mu.Unlock()
	err := s.conn.send(&wireMsg{Kind: msgSpawn, ID: id, Path: path, Args: append([]string{spec.Path}, spec.Args...),
		Dir: dir, Env: env, Stdin: pipes.stdinR != nil}, files)
	if err != nil {
		s.mu.Lock()
		delete(s.kids, id)
		s.mu.Unlock()
		return errSupervisorLost
	}
	t := time.NewTimer(budgets.SupervisorAnswer)
	defer t.Stop()
	var m *wireMsg
	select {
	case m = <-k.answer:
	case <-t.C:
		s.abandon() // stuck: its children die with it
		return fmt.Errorf("the process supervisor did not answer within %s", budgets.SupervisorAnswer)
	}
	switch {
	case m == nil:
		return errSupervisorLost
	case m.Kind == msgFailed && m.Errno != 0:
		// What os.StartProcess returns for the same failure in this process.
		return &os.PathError{Op: "fork/exec", Path: path, Err: syscall.Errno(m.Errno)}
	case m.Kind == msgFailed:
		return errors.New(m.Error)
	}
	p.pid = m.Pid
	p.pgid = groupOf(p.pid)
	register(p) // before anything can report its reap
	go s.await(p, k, pipes)
	return nil
}

// await waits for the child's reap, as the supervisor reports it, or for the supervisor's
// end, which the child does not survive (Pdeathsig); what it left in its group or tree is
// then killed from here.
func (s *supervisor) await(p *Process, k *supervisedChild, pipes *pipeSet) {
	st := <-k.exit
	if st.lost {
		_ = p.signalGroup(syscall.SIGKILL)
		signalTree(p.marker, syscall.SIGKILL)
		st.signal = syscall.SIGKILL.String()
		st.code = -1
	}
	p.exitCode, p.signal = st.code, st.signal
	p.reap()
	pipes.afterReap()
}

// readLoop delivers the supervisor's reports until its socket ends.
func (s *supervisor) readLoop() {
	for {
		m, files, err := s.conn.receive()
		closeFiles(files...)
		if err != nil {
			s.end()
			return
		}
		s.mu.Lock()
		k := s.kids[m.ID]
		switch {
		case k == nil:
		case m.Kind == msgStarted || m.Kind == msgFailed:
			k.answered = true
			k.answer <- m
			if m.Kind == msgFailed {
				delete(s.kids, m.ID)
			}
		case m.Kind == msgExited:
			delete(s.kids, m.ID)
			k.exit <- statusOf(syscall.WaitStatus(m.Status))
		}
		s.mu.Unlock()
	}
}

// end is the socket's end: every child not yet reported reaped is given up.
func (s *supervisor) end() {
	s.mu.Lock()
	s.gone = true
	kids := s.kids
	s.kids = nil
	for _, k := range kids {
		if !k.answered {
			k.answer <- nil
		} else {
			k.exit <- childStatus{lost: true}
		}
	}
	s.mu.Unlock()
}

func (s *supervisor) isGone() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gone
}

// tell sends a removal registration; a supervisor that is gone has no use for it.
func (s *supervisor) tell(kind, dir string) {
	_ = s.conn.send(&wireMsg{Kind: kind, Path: dir}, nil)
}

// close ends the supervisor after an orderly run: EOF on its socket makes it kill what is
// left, reap, remove the registered directories and exit. It waits (bounded) for that.
func (s *supervisor) close() {
	_ = s.conn.closeWrite()
	if !awaitClosed(s.exited, budgets.ProcessStopGrace().Ceiling) {
		s.abandon()
		awaitClosed(s.exited, killReapWait)
	}
	_ = s.conn.close()
}

// abandon SIGKILLs the supervisor: its children die with it (Pdeathsig).
func (s *supervisor) abandon() {
	if s.pid > 1 {
		_ = syscall.Kill(s.pid, syscall.SIGKILL)
	}
}

// awaitClosed waits at most limit for ch to close and reports whether it did.
func awaitClosed(ch <-chan struct{}, limit time.Duration) bool {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-ch:
		return true
	case <-t.C:
		return false
	}
}
