package process

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

const prSetChildSubreaper = 36

// ServeSupervisor is the supervisor process's main (see Supervise): it starts the children
// its parent asks for, reports their pids and exits, and when its parent dies (Pdeathsig,
// EOF on the control socket) or stops it, SIGKILLs every descendant, reaps them all,
// removes the registered directories and returns the exit code. Interrupts are ignored: the
// parent drives orderly stops. It owns every process it has as a child, so unlike the rest
// of the package it reaps with wait(-1).
func ServeSupervisor(opts ServeOptions) int {
	if !IsSupervisorInvocation(os.Args) {
		fmt.Fprintln(os.Stderr, "process supervisor: started without its parent's arguments")
		return 2
	}
	ppid, _ := strconv.Atoi(os.Args[2])
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	// The parent may have died after the Pdeathsig was set (checked then) but before the
	// handler above could see it.
	if os.Getppid() != ppid {
		return 0
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintln(os.Stderr, "process supervisor: cannot become a subreaper:", errno)
		return 1
	}
	conn, err := newControlConn(os.NewFile(3, "supervisor-control"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "process supervisor:", err)
		return 1
	}
	self, ok := selfIdentity()
	if !ok {
		fmt.Fprintln(os.Stderr, "process supervisor: cannot read its own /proc entry")
		return 1
	}
	s := &server{conn: conn, self: self, remove: opts.RemoveDir, children: map[int]uint64{}, dirs: map[string]bool{}}
	if s.remove == nil {
		s.remove = os.RemoveAll
	}
	if err := conn.send(&wireMsg{Kind: msgReady, Pid: os.Getpid()}, nil); err != nil {
		return 1
	}
	go sweepOrphans(self)
	go func() {
		for range chld {
			s.reap()
		}
	}()
	served := make(chan struct{})
	go s.serve(served)
	select {
	case <-term:
	case <-served:
	}
	_ = conn.close() // ends serve, which may be in the middle of one start
	awaitClosed(served, killReapWait)
	s.end()
	return 0
}

// server is the supervisor process's state.
type server struct {
	conn   *controlConn
	self   identity
	remove func(string) error

	mu       sync.Mutex
	children map[int]uint64 // pid -> the parent's id, for children not yet reaped
	dirs     map[string]bool
}

// serve handles the parent's messages until the socket ends. It forks every child, on an OS
// thread locked for good: Pdeathsig fires when the forking thread exits, and this one exits
// only when serve returns, when every child is to die anyway.
func (s *server) serve(done chan<- struct{}) {
	defer close(done)
	runtime.LockOSThread()
	for {
		m, files, err := s.conn.receive()
		if err != nil {
			return
		}
		switch m.Kind {
		case msgSpawn:
			s.spawn(m, files)
		case msgRemove, msgKeep:
			closeFiles(files...)
			s.mu.Lock()
			if m.Kind == msgRemove {
				s.dirs[m.Path] = true
			} else {
				delete(s.dirs, m.Path)
			}
			s.mu.Unlock()
		default:
			closeFiles(files...)
		}
	}
}

// spawn starts one child in its own process group, with Pdeathsig, its environment naming
// this supervisor, and reports the pid (or the failure). It holds mu across the fork and
// the report so that the reaper can neither reap the child before it is known nor report its
// exit before its start.
func (s *server) spawn(m *wireMsg, files []*os.File) {
	defer closeFiles(files...) // the child has its copies
	i := 0
	var stdin *os.File
	if m.Stdin && len(files) > 0 {
		stdin, i = files[0], 1
	}
	if len(files) < i+2 {
		_ = s.conn.send(&wireMsg{Kind: msgFailed, ID: m.ID, Error: "process supervisor: a start without stdout and stderr"}, nil)
		return
	}
	cmd := &exec.Cmd{
		Path:        m.Path,
		Args:        m.Args,
		Dir:         m.Dir,
		Env:         append(m.Env[:len(m.Env):len(m.Env)], identityVar+"="+s.self.String()),
		Stdout:      files[i],
		Stderr:      files[i+1],
		ExtraFiles:  files[i+2:],
		SysProcAttr: sysProcAttr(),
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := cmd.Start(); err != nil {
		reply := &wireMsg{Kind: msgFailed, ID: m.ID, Error: err.Error()}
		var errno syscall.Errno
		if errors.As(err, &errno) {
			reply.Errno = int(errno)
		}
		_ = s.conn.send(reply, nil)
		return
	}
	s.children[cmd.Process.Pid] = m.ID
	_ = s.conn.send(&wireMsg{Kind: msgStarted, ID: m.ID, Pid: cmd.Process.Pid}, nil)
	_ = cmd.Process.Release() // reaped by reap, never by Wait
}

// reap collects every child that has ended (its own, and the orphans it adopted as
// subreaper), reports its own children's exits, and says whether any child is left.
func (s *server) reap() (more bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil: // ECHILD: no child at all
			return false
		case pid == 0:
			return true
		}
		if id, ok := s.children[pid]; ok {
			delete(s.children, pid)
			_ = s.conn.send(&wireMsg{Kind: msgExited, ID: id, Status: uint32(ws)}, nil)
		}
	}
}

// end kills every descendant until none is left and every child is reaped (bounded), then
// removes the registered directories: nothing can be writing there any more.
func (s *server) end() {
	deadline := time.Now().Add(killReapWait)
	for {
		live := killDescendants()
		more := s.reap()
		if live == 0 && !more {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "process supervisor: descendants still running %s after SIGKILL\n", killReapWait)
			return // a process still running may still be writing: leave the directories
		}
		time.Sleep(budgets.ProcessPoll)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for dir := range s.dirs {
		removeRegistered(dir, s.remove)
	}
}
