package scenario

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// closeWatch wraps a real session and records whether Close had begun.
type closeWatch struct {
	Session
	closing atomic.Bool
}

func (c *closeWatch) Close() error { c.closing.Store(true); return c.Session.Close() }

// TestOperationsEndedBeforeTheSessionCloses: Env.OperationsEnded is called once, after the
// operations and before the browser session's close begins, when closing the session is all
// that is left; a cleanup hook (which runs after the close, while the server still runs)
// keeps it from being called.
func TestOperationsEndedBeforeTheSessionCloses(t *testing.T) {
	site := aheadSite(t, nil)
	for _, c := range []struct {
		name    string
		cleanup bool
		want    int
	}{{"nothing after the close", false, 1}, {"a cleanup hook", true, 0}} {
		t.Run(c.name, func(t *testing.T) {
			doc := aheadDoc("ends", site.URL, nil, navigateOp("/"), assertOp("titleContains", "Fixture"))
			if c.cleanup {
				doc["hooks"] = map[string]any{"cleanup": map[string]any{"command": "/bin/true"}}
			}
			opened := 0
			env := countingEnv(t, &opened)
			open := env.Open
			var sess *closeWatch
			env.Open = func(ctx context.Context, spec SessionSpec) (Session, error) {
				s, err := open(ctx, spec)
				if err != nil {
					return nil, err
				}
				sess = &closeWatch{Session: s}
				return sess, nil
			}
			calls, afterClose := 0, false
			env.OperationsEnded = func() { calls++; afterClose = sess.closing.Load() }
			rep := Run(context.Background(), load(t, doc), env)
			if rep.Status != StatusPassed {
				t.Fatalf("%s: %+v", rep.Status, rep.Error)
			}
			if calls != c.want || afterClose {
				t.Errorf("OperationsEnded called %d times (close begun: %v), want %d, before the close", calls, afterClose, c.want)
			}
			if !sess.closing.Load() {
				t.Error("the session was never closed")
			}
		})
	}
}

// TestPoolStartsTheNextWhileOneCloses: at one job, a scenario that frees its slot lets the
// next start while it is still running (closing its session); without free the next waits
// for its end. A scenario whose server takes turns on its address cannot free its slot.
func TestPoolStartsTheNextWhileOneCloses(t *testing.T) {
	for _, c := range []struct {
		name      string
		free      bool
		contested bool
		overlap   bool
	}{{"freed", true, false, true}, {"not freed", false, false, false}, {"taking turns", true, true, false}} {
		t.Run(c.name, func(t *testing.T) {
			a, b := &Loaded{File: &File{ID: "a"}}, &Loaded{File: &File{ID: "b"}}
			turns := &serverLocks{held: map[string]*sync.Mutex{}, only: map[string]bool{}}
			if c.contested {
				turns.only[managedAddress(a)] = true
			}
			secondStarted := make(chan struct{})
			var overlapped atomic.Bool
			runPool(context.Background(), []*Loaded{a, b}, pool{jobs: 1, turns: turns, emit: func(ScenarioReport) {},
				run: func(l *Loaded, free func()) ScenarioReport {
					if l == b {
						close(secondStarted)
						return ScenarioReport{ID: "b", Status: StatusPassed}
					}
					if c.free {
						free()
					}
					// Closing: the next scenario starts meanwhile, or not at all.
					select {
					case <-secondStarted:
						overlapped.Store(true)
					case <-time.After(budgets.WorkerReady().Default):
					}
					return ScenarioReport{ID: "a", Status: StatusPassed}
				}})
			if overlapped.Load() != c.overlap {
				t.Errorf("the second scenario started while the first ran: %v, want %v", overlapped.Load(), c.overlap)
			}
		})
	}
}

// TestLookAheadWaitsForRoom: nothing is opened ahead while Jobs+1 sessions are live (a
// session still closing counts); once one is uncounted, the next fill opens.
func TestLookAheadWaitsForRoom(t *testing.T) {
	a := []*Loaded{{File: &File{ID: "one"}}, {File: &File{ID: "two"}}}
	live := &liveSessions{}
	running, closing := live.add(), live.add() // one job: a scenario running, one closing
	opened := atomic.Int32{}
	la := newLookAhead(context.Background(), a, func(context.Context, *Loaded, *aheadSession) (Session, error) {
		opened.Add(1)
		return &staleSession{}, nil
	}, func() (func(), bool) { return live.reserve(2) })
	defer la.end()
	la.starting(a[0])
	la.fill()
	if p := la.starting(a[1]); p != nil || opened.Load() != 0 {
		t.Fatalf("opened ahead with two sessions live at one job (opened %d)", opened.Load())
	}
	la.started[a[1]] = false // not started after all: the test only looked
	closing()
	la.fill()
	p := la.starting(a[1])
	if p == nil {
		t.Fatal("nothing opened ahead once the closing session was uncounted")
	}
	<-p.done
	if live.peakLive() != 2 {
		t.Errorf("peak %d live, want 2", live.peakLive())
	}
	p.discard()
	running()
}

// TestOwnOpenWaitsForAClosingSession: a scenario that opens its own session (none was opened
// ahead) while Jobs+1 are live — its predecessor's still closing — is counted only once that
// close uncounts one: the peak stays at the bound. It waits on the uncounting, not a clock.
func TestOwnOpenWaitsForAClosingSession(t *testing.T) {
	live := &liveSessions{}
	running, closing := live.add(), live.add() // one job: a scenario running, one closing
	counted := make(chan func(), 1)
	go func() { counted <- live.await(context.Background(), 2, budgets.ProcessStopGrace().Ceiling) }()
	// Uncount the closing session once the waiter is parked on it (freed is set by await).
	if !proctest.PollUntil(budgets.WorkerReady().Default, func() bool { live.mu.Lock(); defer live.mu.Unlock(); return live.freed != nil }) {
		t.Fatal("await never waited for room")
	}
	closing()
	release := <-counted
	if live.peakLive() != 2 {
		t.Errorf("peak %d live, want the bound 2", live.peakLive())
	}
	release()
	running()
	if liveNow := live.live; liveNow != 0 {
		t.Errorf("%d still counted", liveNow)
	}
}

// TestOwnOpenAwaitEndsWithItsContext: a cancelled scenario stops waiting for room.
func TestOwnOpenAwaitEndsWithItsContext(t *testing.T) {
	live := &liveSessions{}
	first := live.add()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	release := live.await(ctx, 1, budgets.ProcessStopGrace().Ceiling)
	release()
	first()
	if live.live != 0 {
		t.Errorf("%d still counted", live.live)
	}
}
