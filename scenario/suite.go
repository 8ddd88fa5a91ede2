package scenario

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// SuiteOptions configures a Suite.
type SuiteOptions struct {
	// Jobs is how many scenarios run at a time (at least 1), each in its own worker and
	// browser context. Scenarios naming the same managed server share one instance at any
	// Jobs; scenarios naming different managed servers on one address take turns
	// (ServerPlan).
	Jobs int
	// FailFast starts no scenario after one did not pass; those are reported skipped. Only a
	// scenario's final outcome counts: an attempt that is retried does not stop the run.
	FailFast bool
	// SerialOpen opens each scenario's session when it gets to it, as before the look-ahead
	// (`run --open-ahead=false`): for comparing the two, and a way back.
	SerialOpen bool
	// Retries runs a scenario that failed or errored again from the start (hooks, managed
	// server, a fresh browser session), up to Retries more times (0 to budgets.RunRetries);
	// passing on a retry is StatusFlaky. Run only: RunOne (replay) runs once.
	Retries int
	// Trace is which scenarios keep a step trace ("": TraceOff; `run` defaults to
	// TraceOnFailure): trace.go.
	Trace TraceMode
	// Session is what every scenario's session starts from: the browser (Executable and
	// Headed launch one for the run, CDPURL attaches to one), the worker (WorkerPath,
	// WorkerArgs), Log and LookupEnv. The suite sets the rest per scenario. Log and
	// LookupEnv also serve the fixture servers and hooks.
	//
	// With Session.Profile (`run --profile`), each scenario's session launches its own
	// browser on that persistent profile, one at a time: Chromium lets one browser use a
	// profile, so Jobs must be 1, no session is opened ahead and the next scenario starts
	// only once the previous one's browser is closed. The caller holds the profile
	// (runtime.HoldProfile) for the run.
	Session runtime.Options
	// Out is the run's directory: each scenario's evidence and diagnostics go to its own
	// artifact store under Out/artifacts.
	Out string
	// ArtifactsMode is the modes of the artifact stores' directories and files (zero:
	// artifacts.ModePrivate).
	ArtifactsMode artifacts.Mode
	// Secrets is the run's secret set: the suite registers every secret the scenarios name
	// before anything runs, and scrubs sessions and diagnostics with it. The caller scrubs
	// its own output and the report files with the same set.
	Secrets *secrets.Set
	// OutputLog, when set, receives the hooks' and managed servers' output as it comes
	// (`run --server-log always`) instead of Session.Log. Either way a bounded copy of each
	// is kept as a log artifact.
	OutputLog io.Writer
	// Notices receives what a run says on stderr by itself (a browser relaunch). Nil discards.
	Notices io.Writer
	// Emit, when set, receives each scenario's report as soon as every earlier one is done,
	// in input order (progress lines).
	Emit func(ScenarioReport)
	// KeepOpen, when set, runs after a scenario's operations ended and before its browser
	// session closes, unless the run was interrupted by then; it holds the session open until
	// it returns. The interrupt that ends it does not make the run interrupted (replay
	// --keep-open). devtools is where a person can attach to a browser the run launched (its
	// token websocket, runtime.Runtime.DevToolsURL); "" for an attached browser, which is the
	// user's own.
	KeepOpen func(ctx context.Context, devtools string)
}

// Suite runs scenario files the way `fastbrowser run` and `replay` do: up to Jobs at a time
// in one lazily launched browser (or an attached one), each scenario with its own session and
// artifact store, reported in input order, into one report v1.
type Suite struct {
	loaded  []*Loaded
	opts    SuiteOptions
	started time.Time
	rep     *Report
	stores  *scenarioStores
	// browser serves every session; browserUDP, launched only for a scenario that allows
	// WebRTC under a "*" policy, keeps WebRTC's UDP on (browser's profile turns it off:
	// runtime/webrtc.go). Attached, browser is the one at Session.CDPURL and browserUDP nil.
	browser, browserUDP *runtime.Allocator
	// opening lets one session open at a time. Opening is mostly Chromium starting a
	// renderer for the new context; concurrent opens contend for the same CPU and take as
	// long in total, but each one alone can then run past the worker-ready budget on a
	// loaded machine (seen with --jobs 4 on 2 CPUs). Operations still run in parallel. The
	// wait is bounded by the scenario's context and by each open's own budget.
	opening chan struct{}
	version sync.Once
	// servers are the run's shared managed servers and the turns on contested addresses.
	servers *serverSchedule
	// keptOpen: a scenario was held open by KeepOpen, so the interrupt that ended the wait
	// does not make the run interrupted.
	keptOpen atomic.Bool
	// ahead opens the next scenario's session while scenarios run (Run only; nil in RunOne).
	ahead *lookAhead
	// live counts the sessions open or opening (tests read its peak).
	live liveSessions
}

// NewSuite prepares a run of loaded, in that order, and registers every secret they name
// (typed text, server and hook env) in opts.Secrets before anything runs or prints, so each
// is masked from the first byte on. Nothing is launched until a scenario opens its session.
// The caller closes the suite.
func NewSuite(loaded []*Loaded, opts SuiteOptions) (*Suite, error) {
	started := time.Now()
	if opts.Secrets == nil {
		opts.Secrets = secrets.New()
	}
	if opts.Notices == nil {
		opts.Notices = io.Discard
	}
	if opts.Retries < 0 || opts.Retries > budgets.RunRetries {
		return nil, fmt.Errorf("retries %d: expected 0 to %d", opts.Retries, budgets.RunRetries)
	}
	if opts.Session.Profile != "" {
		if opts.Jobs > 1 {
			return nil, fmt.Errorf("jobs %d with a persistent profile: one profile serves one browser at a time, so jobs must be 1", opts.Jobs)
		}
		opts.SerialOpen = true // a session opened ahead would be a second browser on the profile
	}
	lookup := opts.Session.LookupEnv
	for _, l := range loaded {
		if err := RegisterSecrets(l, lookup, opts.Secrets); err != nil {
			return nil, err
		}
	}
	s := &Suite{loaded: loaded, opts: opts, started: started, opening: make(chan struct{}, 1),
		stores: &scenarioStores{root: filepath.Join(opts.Out, "artifacts"), mode: opts.ArtifactsMode},
		rep: &Report{Version: ReportVersion, RunID: NewRunID(started), StartedAt: started.UTC(),
			Cwd: workingDir(), Scenarios: []ScenarioReport{}}}
	s.servers = scheduleServers(loaded, opts.Session.LookupEnv, opts.outputLog())
	s.browser, s.browserUDP = allocators(opts.Session)
	s.rep.Browser.Attached = s.browser.Attached()
	return s, nil
}

// Run runs the suite's scenarios, up to Jobs at a time, hands each report to Emit in input
// order, and returns the run's report. Every shared server is stopped before it returns.
//
// While scenarios run, the session of the next one to start is opened ahead (lookAhead): at
// most Jobs+1 sessions are live, each scenario's first attempt runs in a session opened for
// it alone, and every session opened ahead that no scenario took is closed before Run
// returns.
func (s *Suite) Run(ctx context.Context) *Report {
	defer s.servers.stopAll()
	if !s.opts.SerialOpen {
		s.ahead = newLookAhead(ctx, s.loaded, s.openAhead, s.aheadRoom)
	}
	reports := runPool(ctx, s.loaded, pool{jobs: s.opts.Jobs, failFast: s.opts.FailFast, turns: s.servers.turns,
		run: func(l *Loaded, free func()) ScenarioReport {
			ahead := s.ahead.starting(l)
			var began time.Time
			sr := runAttempts(ctx, s.opts.Retries, func(k int) ScenarioReport {
				began = time.Now()
				if k > 1 {
					ahead.discard() // a retry opens a fresh session
					ahead = nil
				}
				env := s.attemptEnv(l, k, ahead)
				// When nothing can follow from its outcome (no retry; no --fail-fast, which
				// must see the close's outcome too), the next scenario starts while this
				// one's session closes; not on a persistent profile, whose browser must be
				// gone before the next one launches on it.
				if s.opts.Retries == 0 && !s.opts.FailFast && s.opts.Session.Profile == "" {
					env.OperationsEnded = free
				}
				return Run(ctx, l, env)
			})
			ahead.discard() // not taken: its hooks or server failed first
			// A shared server outlives the attempts; its last user stops it.
			s.servers.release(l, &sr, began)
			return sr
		},
		emit: s.emit,
		skipped: func(l *Loaded) {
			s.ahead.skipped(l)
			s.servers.release(l, nil, time.Time{})
		},
	})
	s.ahead.end()
	return s.finish(ctx, reports)
}

// RunOne runs l at once, alone and outside the schedule (replay: a Ctrl-C before it starts
// still runs it, to be interrupted), and returns the run's report holding it. Emit is not
// called.
func (s *Suite) RunOne(ctx context.Context, l *Loaded) *Report {
	defer s.servers.stopAll()
	env := s.env(l)
	env.FinalAttempt = true // RunOne never retries
	return s.finish(ctx, []ScenarioReport{Run(ctx, l, env)})
}

// Servers is how the run schedules its managed servers (shared, or taking turns).
func (s *Suite) Servers() ServerPlan { return s.servers.plan }

func (s *Suite) emit(sr ScenarioReport) {
	if s.opts.Emit != nil {
		s.opts.Emit(sr)
	}
}

// finish completes the report: duration, counts and status (interrupted when the run's
// context ended, except by the Ctrl-C that closed a KeepOpen wait).
func (s *Suite) finish(ctx context.Context, scenarios []ScenarioReport) *Report {
	s.rep.Scenarios = scenarios
	s.rep.DurationMs = time.Since(s.started).Milliseconds()
	s.rep.Summarise()
	if ctx.Err() != nil && !s.keptOpen.Load() {
		s.rep.Status = StatusInterrupted
	}
	return s.rep
}

// Close stops every shared server still up and the browser the suite launched (an attached
// one is left alone), and closes the artifact stores: uncommitted writes are discarded,
// committed evidence stays.
func (s *Suite) Close() {
	s.servers.stopAll()
	_ = s.browser.Close()
	if s.browserUDP != nil {
		_ = s.browserUDP.Close()
	}
	s.stores.close()
}

// outputLog is where hook and server output streams: OutputLog, else Session.Log.
func (o *SuiteOptions) outputLog() io.Writer {
	if o.OutputLog != nil {
		return o.OutputLog
	}
	return o.Session.Log
}

// workingDir is the absolute working directory ("" when it cannot be read: replay then
// resolves paths against its own, as before the report recorded it).
func workingDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}
