package scenario

import (
	"context"
	"net/url"
	"sync"
)

// runPool runs scenarios on up to jobs goroutines, each with its own session, and hands
// their reports to emit in input order, as soon as every earlier one is done: output and
// report order never depend on the parallelism. run runs one scenario with all its attempts
// (one slot and the server's turn are held across them). With failFast, no scenario starts
// after one's final outcome was not a pass (an attempt that is retried does not count);
// those and the ones Ctrl-C kept from starting are reported skipped.
func runPool(ctx context.Context, loaded []*Loaded, jobs int, failFast bool, run func(*Loaded) ScenarioReport, emit func(ScenarioReport)) []ScenarioReport {
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
			emit(reports[i])
		}
	}()

	slots := make(chan struct{}, max(jobs, 1))
	locks := &serverLocks{held: map[string]*sync.Mutex{}}
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
				defer func() { <-slots; close(done[i]) }()
				unlock := locks.lock(l)
				defer unlock()
				reports[i] = run(l)
				if failFast && !passed(reports[i].Status) {
					stop.Do(func() { stoppedBy = l.ID; close(stopped) })
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

// serverLocks keeps scenarios that start a managed server on the same address from running
// at the same time (the quick-start scenarios all use 127.0.0.1:4310): the second would
// find the port in use. Scenarios on different addresses, or against external servers,
// run in parallel.
type serverLocks struct {
	mu   sync.Mutex
	held map[string]*sync.Mutex
}

func (s *serverLocks) lock(l *Loaded) func() {
	key := managedAddress(l)
	if key == "" {
		return func() {}
	}
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

// managedAddress is the host:port a managed server of the scenario listens on, as its
// readiness URL names it ("" when the scenario starts no server).
func managedAddress(l *Loaded) string {
	f := l.Fixture
	if f == nil || f.Server == nil || f.Server.Mode != ModeManaged {
		return ""
	}
	u, err := url.Parse(f.Server.Readiness.URL)
	if err != nil {
		return ""
	}
	return u.Host
}
