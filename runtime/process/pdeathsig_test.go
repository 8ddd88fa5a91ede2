//go:build linux

package process

import (
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// A parent that dies by SIGKILL takes its child with it, through Pdeathsig.
func TestPdeathsigKillsChildOfDeadParent(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := start(t, Spec{
		Path:   exe,
		Args:   []string{"-test.run=^$"},
		Env:    append(os.Environ(), helperEnv+"=pdeathsig-parent"),
		Stdout: true,
	})
	child := readPid(t, parent.Stdout)
	trackGroup(child)
	if !proctest.Alive(child) {
		t.Fatalf("child %d not running", child)
	}
	if err := syscall.Kill(parent.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDone(t, parent, 5*time.Second)
	// The orphan is adopted by this test binary; it leads its own group, so reap it by name.
	if !proctest.PollUntil(5*time.Second, func() bool { proctest.ReapAdoptedOrphans(child); return !proctest.Alive(child) }) {
		t.Fatalf("child %d still alive 5s after its parent was killed", child)
	}
}

// The thread that calls Start may end right after (a locked goroutine returning); the child
// must survive, because it was forked from the reaper's own locked thread, not the caller's.
// TestMain keeps the main thread out of this: the runtime parks, not ends, a locked main.
func TestChildSurvivesCallerThreadExit(t *testing.T) {
	t.Parallel()
	type result struct {
		p   *Process
		err error
	}
	started := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: this OS thread ends with the goroutine
		p, err := Start(Spec{Path: "/bin/sleep", Args: []string{"1000"}})
		started <- result{p, err}
	}()
	r := <-started
	if r.err != nil {
		t.Fatal(r.err)
	}
	p := r.p
	track(p.Pid())
	t.Cleanup(func() { _ = p.Kill() })
	var wg sync.WaitGroup
	for range 32 { // and more threads end, whichever ran the start
		wg.Go(func() { runtime.LockOSThread() })
	}
	wg.Wait()
	select {
	case <-p.Done():
		t.Fatalf("child died when the calling thread ended: %s", p.Signal())
	case <-time.After(300 * time.Millisecond):
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}
