package scenario

import (
	"context"
	"sync"
)

// pool is how runPool runs a suite's scenarios: up to jobs at a time; with failFast, none
// starts after one's final outcome was not a pass; turns keeps scenarios of different
// managed servers on one address apart; run runs one scenario with all its attempts (one
// slot and the server's turn are held across them, unless run calls free: the scenario's
// outcome is then settled and all it does is close its browser session, so the slot goes to
// the next scenario); emit gets each report in input order; skipped (nil: nothing) hears of
// each scenario that never started.
type pool struct {
	jobs     int
	failFast bool
	turns    *serverLocks
	run      func(l *Loaded, free func()) ScenarioReport
	emit     func(ScenarioReport)
	skipped  func(*Loaded)
}

// runPool runs scenarios on up to p.jobs goroutines, each with its own session, and hands
// their reports to emit in input order, as soon as every earlier one is done: output and
// report order never depend on the parallelism. An attempt that is retried does not stop a
// fail-fast run; the scenarios fail-fast and Ctrl-C kept from starting are reported skipped.
func runPool(ctx context.Context, loaded []*Loaded, p pool) []ScenarioReport {
	reports := make([]ScenarioReport, len(loaded))
	done := make([]chan struct{}, len(loaded))
	for i := range done {
		done[i] = make(chan struct{})
	}
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		for i := range loaded {
			<-done[i]
			p.emit(reports[i])
		}
	}()

	slots := make(chan struct{}, max(p.jobs, 1))
	var stop sync.Once
	stopped := make(chan struct{})
	var stoppedBy string // the scenario that stopped a --fail-fast run; written before stopped closes
	for i, l := range loaded {
		skip := func() {
			reason := "not started: the run was interrupted"
			if ctx.Err() == nil && isClosed(stopped) {
				reason = "not started: --fail-fast stopped the run after scenario " + stoppedBy + " did not pass"
			}
			reports[i] = Skipped(l, reason)
			if p.skipped != nil {
				p.skipped(l)
			}
			close(done[i])
		}
		select {
		case slots <- struct{}{}:
			if ctx.Err() != nil || isClosed(stopped) {
				<-slots
				skip()
				continue
			}
			go func() {
				var freed sync.Once
				release := func() { freed.Do(func() { <-slots }) }
				defer func() { release(); close(done[i]) }()
				unlock := p.turns.lock(l)
				defer unlock()
				free := release
				if p.turns.contested(l) {
					free = func() {} // the next scenario's server may need this one's stopped first
				}
				reports[i] = p.run(l, free)
				if p.failFast && !passed(reports[i].Status) {
					stop.Do(func() { stoppedBy = l.title(); close(stopped) })
				}
			}()
		case <-ctx.Done():
			skip()
		case <-stopped:
			skip()
		}
	}
	<-printed
	return reports
}

// passed: the scenario's final outcome is a pass, at once or on a retry.
func passed(status string) bool { return status == StatusPassed || status == StatusFlaky }

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// serverLocks keeps scenarios that start different managed servers on the same address
// (only) from running at the same time: the second would find the port in use. Scenarios
// sharing one server, on different addresses, or against external servers run in parallel.
type serverLocks struct {
	mu   sync.Mutex
	held map[string]*sync.Mutex
	only map[string]bool // the contested addresses
}

// contested: l's managed server takes turns on its address with another.
func (s *serverLocks) contested(l *Loaded) bool { return s != nil && s.only[managedAddress(l)] }

func (s *serverLocks) lock(l *Loaded) func() {
	if !s.contested(l) {
		return func() {}
	}
	key := managedAddress(l)
	s.mu.Lock()
	m, ok := s.held[key]
	if !ok {
		m = &sync.Mutex{}
		s.held[key] = m
	}
	s.mu.Unlock()
	m.Lock()
	return m.Unlock
}
