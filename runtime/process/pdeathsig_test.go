//go:build linux

package process

import (
	"os"
	"runtime"
	"strconv"
	"strings"
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
		tid int
	}
	started := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: this OS thread ends with the goroutine
		p, err := Start(Spec{Path: "/bin/sleep", Args: []string{"1000"}})
		started <- result{p, err, syscall.Gettid()}
	}()
	r := <-started
	if r.err != nil {
		t.Fatal(r.err)
	}
	p := r.p
	track(p.Pid())
	t.Cleanup(func() { _ = p.Kill() })
	var mu sync.Mutex
	tids := []int{r.tid}
	var wg sync.WaitGroup
	for range 32 { // and more threads end, whichever ran the start
		wg.Go(func() {
			runtime.LockOSThread()
			mu.Lock()
			tids = append(tids, syscall.Gettid())
			mu.Unlock()
		})
	}
	wg.Wait()
	awaitThreadsEnded(t, tids)
	requireNotKilled(t, p.Pid())
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}

// awaitThreadsEnded waits (bounded) until none of this process's threads tids is listed any
// more. A thread is unlisted only after its exit sent the Pdeathsig of the children it
// forked, so from then on such a child is dying or has a SIGKILL pending.
func awaitThreadsEnded(t *testing.T, tids []int) {
	t.Helper()
	if !proctest.PollUntil(5*time.Second, func() bool {
		for _, tid := range tids {
			if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); err == nil {
				return false
			}
		}
		return true
	}) {
		t.Fatalf("threads %v did not end", tids)
	}
}

// requireNotKilled waits (bounded) to see pid asleep with no SIGKILL pending, which a process
// that was sent SIGKILL never is again (the kill wakes it to exit), and fails t if it sees
// the process ended first.
func requireNotKilled(t *testing.T, pid int) {
	t.Helper()
	var status string
	if !proctest.PollUntil(5*time.Second, func() bool {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		status = string(b)
		if err != nil || strings.Contains(status, "State:\tZ") || strings.Contains(status, "State:\tX") {
			t.Fatalf("pid %d ended when the threads did", pid)
		}
		return strings.Contains(status, "State:\tS") && !sigKillIn(status, "SigPnd:") && !sigKillIn(status, "ShdPnd:")
	}) {
		t.Fatalf("pid %d not seen asleep without SIGKILL pending:\n%s", pid, status)
	}
}

// sigKillIn reports whether the signal mask on status's line field has SIGKILL (9) set.
func sigKillIn(status, field string) bool {
	for _, line := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err != nil || mask&(1<<(syscall.SIGKILL-1)) != 0
		}
	}
	return true // no such line: assume the worst
}
