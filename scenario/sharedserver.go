package scenario

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// sharedServer is one managed server of a run that several scenarios name identically
// (serverKey): it is started once, by the first of them to need it, serves all of them at
// whatever --jobs, and is stopped when the last of them finished or was skipped (Playwright's
// webServer). Hooks stay per scenario. A start or readiness failure is kept: every later user
// gets it at once, and nothing is started again.
type sharedServer struct {
	spec   *Server
	dir    string // the first user's directory (its cwd resolves like every other user's)
	lookup func(string) (string, bool)
	log    io.Writer
	out    *outputLog // the server's whole output, kept in each user's diagnostics

	// sem is held while the server is started (one start, however many users wait for it).
	sem chan struct{}

	mu        sync.Mutex
	users     int // scenarios that have not finished (nor been skipped) yet
	started   bool
	fs        *fixtureServer
	starter   string // the scenario whose start it was
	failure   error  // why the start or the first readiness wait failed; kept for every user
	stopped   bool
	scenarios int // how many scenarios of the run use it
}

// serverKey is what makes two scenarios' managed servers the same one: command, args, the
// directory it runs in (cwd resolved against the file's directory), env as written (a
// literal or the name of a host variable, never its value), readiness (status and timeout
// with their defaults filled in) and reuseExisting. "" when the scenario starts no server.
func serverKey(l *Loaded) string {
	f := l.Fixture
	if f == nil || f.Server == nil || f.Server.Mode != ModeManaged || f.Server.Start == nil {
		return ""
	}
	s := f.Server
	cwd := commandDir(s.Start, l.Dir) // as startCommand resolves it
	r := s.Readiness
	if r.ExpectedStatus == 0 {
		r.ExpectedStatus = 200
	}
	timeout, _ := budgets.FixtureReadiness().ResolveMs(r.TimeoutMs)
	r.TimeoutMs = timeout.Milliseconds()
	key, _ := json.Marshal(struct {
		Command   string
		Args      []string
		Cwd       string
		Env       map[string]EnvValue // encoding/json sorts the names
		Readiness Readiness
		Reuse     bool
	}{s.Start.Command, s.Start.Args, filepath.Clean(cwd), s.Start.Env, r, s.ReuseExisting})
	return string(key)
}

// acquire hands the shared server to one attempt of a scenario: it starts the server if no
// one did yet, else checks that it still lives and answers readiness (bounded by the
// readiness budget) before the scenario uses it. Its events: server.start ok|failed|reused
// for the scenario that started it, shared for the others; then server.ready ok|failed.
func (sh *sharedServer) acquire(ctx context.Context, s *runState) error {
	s.logs = append(s.logs, sh.out)
	select {
	case sh.sem <- struct{}{}:
	case <-ctx.Done():
		s.event("server", "start", "failed")
		return ctxEnded(ctx, "while waiting for the shared fixture server to start")
	}
	sh.mu.Lock()
	started, failure, fs, starter := sh.started, sh.failure, sh.fs, sh.starter
	sh.mu.Unlock()
	if !started {
		err := sh.start(ctx, s)
		<-sh.sem
		return err
	}
	<-sh.sem
	s.event("server", "start", "shared")
	if failure != nil {
		s.event("server", "ready", "failed")
		first := transport.AsOperationError("", failure)
		return scenarioError(first.Code, "the shared fixture server failed when scenario %s started it, and is not started again: %s", starter, first.Message)
	}
	err := sh.died(fs, starter)
	if err == nil {
		if err = awaitReady(ctx, sh.spec, fs); err != nil {
			err = cmp.Or(sh.died(fs, starter), err)
		}
	}
	if err != nil {
		s.event("server", "ready", "failed")
		return err
	}
	s.event("server", "ready", "ok")
	return nil
}

// died is the error of a shared server whose process ended during the run (nil while it
// lives): it names the server and the scenario it was started for, and its exit status once
// reaped (the reaper collects it promptly; the wait is bounded by the stop grace).
func (sh *sharedServer) died(fs *fixtureServer, starter string) error {
	if fs.proc == nil || !fs.proc.Exited() {
		return nil
	}
	t := time.NewTimer(budgets.ProcessStopGrace().Default)
	defer t.Stop()
	select {
	case <-fs.proc.Done():
	case <-t.C:
	}
	return scenarioError(transport.CodeFixtureNotReady, "the shared fixture server %s (%s, started for scenario %s) exited during the run (%s) and is not started again",
		sh.spec.Readiness.URL, sh.spec.Start.Command, starter, exitOf(fs.proc))
}

// start starts the server for s (sem held) and waits for readiness. A failure is kept for
// every later user, except an end of s's own budget or of the run: that is not the server's
// fault, so what was started is stopped and the next user starts it afresh.
func (sh *sharedServer) start(ctx context.Context, s *runState) error {
	fs, reused, err := startManaged(ctx, sh.spec, sh.dir, sh.lookup, sh.log, sh.out)
	switch {
	case err != nil:
		s.event("server", "start", "failed")
		if ctx.Err() != nil {
			return budgetOr(ctx, err)
		}
		sh.keep(s.l.ID, nil, err)
		return err
	case reused:
		s.event("server", "start", "reused")
	default:
		s.event("server", "start", "ok")
	}
	err = awaitReady(ctx, sh.spec, fs)
	if err != nil && ctx.Err() != nil {
		s.event("server", "ready", "failed")
		// Stopped here, not by release: its stop belongs in this scenario's events.
		if stopErr := fs.stop(); stopErr != nil {
			s.event("server", "stop", "failed")
			sh.keep(s.l.ID, fs, scenarioError(transport.CodeInternal, "the shared fixture server could not be stopped"))
		} else {
			s.event("server", "stop", "ok")
		}
		return err
	}
	sh.keep(s.l.ID, fs, err)
	if err != nil {
		s.event("server", "ready", "failed")
		return err
	}
	s.event("server", "ready", "ok")
	return nil
}

// keep records a start: the server (stopped at the end, also when it never became ready)
// and its failure.
func (sh *sharedServer) keep(starter string, fs *fixtureServer, failure error) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.started, sh.starter, sh.fs, sh.failure = true, starter, fs, failure
}

// release says one scenario is done with the server (finished with all its attempts, or
// skipped). The last one stops it, and gets its server.stop event in rep (nil: nowhere to
// record it) at atMs.
func (sh *sharedServer) release(rep *ScenarioReport, began time.Time) {
	sh.mu.Lock()
	sh.users--
	last := sh.users == 0
	sh.mu.Unlock()
	if !last {
		return
	}
	stopped, err := sh.stop()
	if !stopped || rep == nil {
		return
	}
	status := "ok"
	if err != nil {
		status = "failed"
		if rep.Status == StatusPassed || rep.Status == StatusFlaky {
			rep.Status = StatusError
			rep.Error = scenarioError(transport.CodeInternal, "the shared fixture server could not be stopped")
		}
	}
	rep.Events = append(rep.Events, Event{AtMs: time.Since(began).Milliseconds(), Kind: "server", Name: "stop", Status: status})
}

// stop stops the server once (TERM to its group, grace, KILL; reaped); stopped is false
// when there was nothing to stop. Also the suite's end, whatever is still up.
func (sh *sharedServer) stop() (stopped bool, err error) {
	sh.mu.Lock()
	fs := sh.fs
	if sh.stopped || fs == nil || fs.proc == nil {
		sh.stopped = true
		sh.mu.Unlock()
		return false, nil
	}
	sh.stopped = true
	sh.mu.Unlock()
	return true, fs.stop()
}
