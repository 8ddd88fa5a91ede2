//go:build linux

package process

import (
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// ignoreTerm is a group whose leader and grandchild both ignore SIGTERM (ignored signals are
// inherited across exec); it prints the grandchild's pid.
const ignoreTerm = `trap '' TERM; /bin/sleep 1000 & echo $!; wait`

func TestStopKillsGroupIgnoringTerm(t *testing.T) {
	t.Parallel()
	spec := sh(ignoreTerm)
	spec.Stdout = true
	p := start(t, spec)
	grandchild := readPid(t, p.Stdout)

	const grace = 300 * time.Millisecond
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(began); took < grace {
		t.Errorf("Stop returned after %s, before the %s grace", took, grace)
	}
	if got := p.Signal(); got != "killed" {
		t.Errorf("Signal() = %q, want killed", got)
	}
	if got := p.ExitCode(); got != -1 {
		t.Errorf("ExitCode() = %d, want -1", got)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
	if proctest.Alive(grandchild) {
		t.Errorf("grandchild %d still alive", grandchild)
	}
}

func TestStopTerminatesPolitely(t *testing.T) {
	t.Parallel()
	p := start(t, Spec{Path: "/bin/sleep", Args: []string{"1000"}})
	// The longest grace, so that half of it is a roomy bound on a loaded machine and still
	// tells a stop that returns on the reap from one that waits the grace out.
	grace := budgets.ProcessStopGrace().Ceiling
	began := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(began); took > grace/2 {
		t.Errorf("Stop of a TERM-obeying child took %s", took)
	}
	if got := p.Signal(); got != "terminated" {
		t.Errorf("Signal() = %q, want terminated", got)
	}
}

func TestStopAfterExitKillsGrandchildren(t *testing.T) {
	t.Parallel()
	spec := sh(`/bin/sleep 1000 & echo $!`)
	spec.Stdout = true
	p := start(t, spec)
	grandchild := readPid(t, p.Stdout)
	waitDone(t, p, 5*time.Second)
	if p.ExitCode() != 0 {
		t.Fatalf("ExitCode() = %d, want 0", p.ExitCode())
	}
	if !proctest.Alive(grandchild) {
		t.Fatalf("grandchild %d died with its parent; the test proves nothing", grandchild)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
}

func TestStopIdempotentAndConcurrent(t *testing.T) {
	t.Parallel()
	p := start(t, sh(ignoreTerm))
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() { errs <- p.Stop(200 * time.Millisecond) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Stop: %v", err)
		}
	}
	// Kill scans /proc for the group, which a loaded machine running many Chromiums makes
	// slow; the bound stays under both the second Stop's grace and Kill's reap wait, which a
	// Stop or Kill of a reaped child must not wait out.
	began := time.Now()
	if err := p.Stop(5 * time.Second); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := p.Kill(); err != nil {
		t.Errorf("Kill after Stop: %v", err)
	}
	if took := time.Since(began); took > killReapWait*3/4 {
		t.Errorf("Stop and Kill of a reaped child took %s", took)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
}

func TestKillNow(t *testing.T) {
	t.Parallel()
	p := start(t, sh(ignoreTerm))
	if err := p.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if got := p.Signal(); got != "killed" {
		t.Errorf("Signal() = %q, want killed", got)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
}

func TestStopGrace(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{0, 2 * time.Second},
		{-time.Second, 2 * time.Second},
		{time.Second, time.Second},
		{time.Hour, 10 * time.Second},
	} {
		if got := stopGrace(c.in); got != c.want {
			t.Errorf("stopGrace(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// KillAll is for an abrupt exit: it reaches a group's members that Pdeathsig would not (a
// grandchild whose parent is alive or already gone), without waiting. Not parallel: KillAll
// reaches every child of the test binary.
func TestKillAllReachesGrandchildren(t *testing.T) {
	spec := sh(`/bin/sleep 1000 & echo $!; exec /bin/sleep 1000`)
	spec.Stdout = true
	p := start(t, spec)
	grandchild := readPid(t, p.Stdout)
	KillAll()
	// It did not wait for the grandchild to be reaped: once its parent is gone only this
	// test reaps it (adopted as subreaper), and it has not yet.
	requireNotReaped(t, []int{grandchild})
	waitDone(t, p, 5*time.Second)
	if got := p.Signal(); got != "killed" {
		t.Errorf("Signal() = %q, want killed", got)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
	if proctest.Alive(grandchild) {
		t.Errorf("grandchild %d still alive", grandchild)
	}
}

// A stopped child leaves the set KillAll signals: its group id may be reused.
func TestStoppedLeavesKillAll(t *testing.T) {
	t.Parallel()
	p := start(t, Spec{Path: "/bin/sleep", Args: []string{"1000"}})
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	live.Lock()
	_, still := live.procs[p]
	live.Unlock()
	if still {
		t.Error("a stopped process is still in KillAll's set")
	}
}

// A child that exits with nothing left in its group leaves the set by itself.
func TestExitedLeavesKillAll(t *testing.T) {
	t.Parallel()
	p := start(t, sh("exit 0"))
	waitDone(t, p, 5*time.Second)
	live.Lock()
	_, still := live.procs[p]
	live.Unlock()
	if still {
		t.Error("an exited process with an empty group is still in KillAll's set")
	}
}
