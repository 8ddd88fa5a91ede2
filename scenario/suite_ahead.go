package scenario

import (
	"context"
	"sync"
	"time"
)

// lookAhead is `run`'s pipelined session opening: while scenarios run, the session of the
// scenario that starts next (its worker, browser context and tab: runtime.Open) is opened,
// so a scenario no longer waits for Chromium to start a renderer. Opening a context touches
// no fixture, so it may happen before that scenario's hooks and server; it is opened with the
// scenario's own options (l.sessionSpec), for its first attempt only (a retry opens a fresh
// one), and never handed to another scenario.
//
// At most one session is open ahead at a time, and only once some session opened (a run whose
// fixtures never come up launches no browser): with the Jobs running scenarios' own, never
// more than Jobs+1 sessions live. A session opened ahead for a scenario that does not run
// (skipped by --fail-fast or an interrupt, or the run ending) or does not take it (its hooks
// or server failed first) is closed, its worker reaped and its context disposed.
type lookAhead struct {
	ctx     context.Context // the run's: an interrupt cancels opens in flight
	open    func(ctx context.Context, l *Loaded, p *aheadSession) (Session, error)
	room    func() (counted func(), ok bool) // counts one more live session if the bound allows
	mu      sync.Mutex
	order   []*Loaded
	started map[*Loaded]bool // run or skipped: nothing is opened ahead for it any more
	// first is where fill looks for the next scenario: every one in order[:first] started.
	// Scenarios start (nearly) in order and never unstart, so the scan resumes there instead
	// of rescanning the started ones: O(n) over a run, not O(n²).
	first   int
	next    *aheadSession  // the session opened ahead and not yet taken (nil: none)
	crashes int            // browsers found dead so far (sessions opened before are stale)
	ended   bool           // the run ended: nothing more is opened
	wg      sync.WaitGroup // opens and discards in flight
}

// aheadSession is one session opened ahead for scenario l.
type aheadSession struct {
	l       *Loaded
	counted func() // uncounts it from the live sessions (once; the session's close does)
	cancel  context.CancelFunc
	done    chan struct{} // closed when the open returned; then rt, err and openMs are set
	rt      Session
	err     error
	openMs  int64 // how long opening it took (not part of the scenario's duration)
	crashes int   // lookAhead.crashes when its open began
	events  []Event
	used    bool // handed to the scenario's first attempt
	closed  sync.Once
}

func newLookAhead(ctx context.Context, loaded []*Loaded, open func(context.Context, *Loaded, *aheadSession) (Session, error), room func() (func(), bool)) *lookAhead {
	return &lookAhead{ctx: ctx, open: open, room: room, order: loaded, started: map[*Loaded]bool{}}
}

// event records a lifecycle event of the open (a relaunch) for the scenario's report.
func (p *aheadSession) event(kind, name, status string) {
	p.events = append(p.events, Event{Kind: kind, Name: name, Status: status})
}

// fill opens the next scenario's session ahead when none is open ahead and a scenario has
// not started yet. It is called whenever a scenario took its session: the browser is then up,
// and a relaunch after a crash is the scenario's own (its report's runtime.relaunch).
func (a *lookAhead) fill() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ended || a.next != nil || a.ctx.Err() != nil {
		return
	}
	for a.first < len(a.order) && a.started[a.order[a.first]] {
		a.first++
	}
	if a.first == len(a.order) {
		return
	}
	l := a.order[a.first]
	counted, ok := a.room()
	if !ok {
		return // a session closing still counts; its close fills again
	}
	ctx, cancel := context.WithCancel(a.ctx)
	p := &aheadSession{l: l, counted: counted, cancel: cancel, done: make(chan struct{}), crashes: a.crashes}
	a.next = p
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		began := time.Now()
		p.rt, p.err = a.open(ctx, l, p)
		p.openMs = time.Since(began).Milliseconds()
		close(p.done)
	}()
}

// starting marks l started and hands it the session opened ahead for it, if any (nil:
// none). The scenario then owns it: it takes it (take) or closes it (discard).
func (a *lookAhead) starting(l *Loaded) *aheadSession {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.started[l] = true
	if a.next == nil || a.next.l != l {
		return nil
	}
	p := a.next
	a.next = nil
	return p
}

// skipped marks l as never to run, and closes the session opened ahead for it. The slot is
// free again only once that session is closed: the bound counts it until then.
func (a *lookAhead) skipped(l *Loaded) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.started[l] = true
	p := a.next
	if p == nil || p.l != l {
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		p.discard()
		a.mu.Lock()
		if a.next == p {
			a.next = nil
		}
		a.mu.Unlock()
	}()
}

// crashed notes that a session found its browser dead: every session opened before is stale.
func (a *lookAhead) crashed() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.crashes++
	a.mu.Unlock()
}

// take waits for the session opened ahead (bounded by the scenario's ctx), hands the events
// of its open (a relaunch) to event, and returns it when it is usable: opened, in a browser
// nobody found dead since, with a live worker and browser. Otherwise it closes it and returns
// nil: the scenario opens one as it always did.
func (p *aheadSession) take(ctx context.Context, a *lookAhead, event func(kind, name, status string)) Session {
	select {
	case <-p.done:
	case <-ctx.Done():
		return nil
	}
	for _, e := range p.events {
		if event != nil {
			event(e.Kind, e.Name, e.Status)
		}
	}
	if p.err != nil || p.rt == nil {
		return nil
	}
	a.mu.Lock()
	crashed := a.crashes != p.crashes
	a.mu.Unlock()
	if st, ok := p.rt.(interface{ Stale() bool }); crashed || (ok && st.Stale()) {
		p.discard()
		return nil
	}
	p.used = true
	return p.rt
}

// discard closes the session unless the scenario took it: its open is cancelled and waited
// for, its worker reaped and its browser context disposed (by the worker's close).
func (p *aheadSession) discard() {
	if p == nil || p.used {
		return
	}
	p.closed.Do(func() {
		p.cancel()
		<-p.done
		if p.rt != nil {
			_ = p.rt.Close()
		}
	})
}

// end opens nothing more, closes the session still open ahead, and waits for every open and
// discard in flight: when it returns, every session the look-ahead opened and nobody took is
// closed.
func (a *lookAhead) end() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.ended = true
	p := a.next
	a.next = nil
	a.mu.Unlock()
	p.discard()
	a.wg.Wait()
}
