package scenario

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/transport"
)

// allocators are a run's browsers: with CDPURL the attached one alone; otherwise one
// launched on first use, and one with WebRTC's UDP on, launched only if a scenario needs it.
func allocators(o runtime.Options) (browser, browserUDP *runtime.Allocator) {
	if o.CDPURL != "" {
		return runtime.NewAttachAllocator(o.CDPURL), nil
	}
	return runtime.NewLaunchAllocator(runtime.LaunchOptions(o, false)), runtime.NewLaunchAllocator(runtime.LaunchOptions(o, true))
}

// env is the runner environment of a scenario's first attempt, with no session opened ahead.
func (s *Suite) env(l *Loaded) Env { return s.attemptEnv(l, 1, nil) }

// attemptEnv is one attempt's runner environment: its own worker, browser context and
// artifact store (evidence, and the hook and server logs), in the run's browser; a retry's
// artifacts go to a directory of their own (AttemptRunDir). ahead, when set, is the session
// opened ahead for the attempt (the first one's only): its Open takes it when it is usable.
func (s *Suite) attemptEnv(l *Loaded, k int, ahead *aheadSession) Env {
	store, storeErr := s.stores.forScenario(l.ID)
	runDir := AttemptRunDir(l.runID(s.rep.RunID), k)
	env := Env{
		Lookup: s.opts.Session.LookupEnv,
		Log:    s.opts.outputLog(),
		Store:  store, // nil when it cannot be opened: logs are then only drained
		RunID:  runDir,
		Scrub:  s.opts.Secrets.ScrubBytes,
		Trace:  s.opts.Trace,
		// No retry follows the last one allowed (runAttempts).
		FinalAttempt: k > s.opts.Retries,
		Open: func(ctx context.Context, spec SessionSpec) (Session, error) {
			if storeErr != nil {
				return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeInternal, transport.RetryNever, transport.NotAttempted,
					"the artifact store %s cannot be opened: %s", s.stores.root, artifacts.Cause(storeErr))
			}
			if ahead != nil {
				if rt := ahead.take(ctx, s.ahead, spec.Event); rt != nil {
					ss := rt.(*suiteSession)
					ss.openedAhead = ahead.openMs
					release := ss.release
					ss.release = func() { release(); ahead.cancel() } // its open's context ends with it
					s.ahead.fill()
					return ss, nil
				}
			}
			rt, err := s.open(ctx, spec, store, runDir, nil)
			if err == nil {
				s.ahead.fill()
			}
			return rt, err
		},
	}
	env.shared = s.servers.shared[l]
	if s.opts.KeepOpen != nil {
		env.BeforeClose = s.keepOpen
	}
	return env
}

// openAhead opens l's session for its first attempt before it starts (lookAhead); a
// relaunch it causes is kept on p for the scenario's report.
func (s *Suite) openAhead(ctx context.Context, l *Loaded, p *aheadSession) (Session, error) {
	store, err := s.stores.forScenario(l.ID)
	if err != nil {
		p.counted()
		return nil, err // the scenario's own Open says so
	}
	spec := l.sessionSpec()
	spec.Event = p.event
	return s.open(ctx, spec, store, AttemptRunDir(l.runID(s.rep.RunID), 1), p.counted)
}

// liveBound is the most sessions live at once: the Jobs running scenarios' own, and one
// more, opened ahead or still closing.
func (s *Suite) liveBound() int { return max(s.opts.Jobs, 1) + 1 }

// aheadRoom counts a session to open ahead if that keeps at most liveBound live: the running
// scenarios' own, those still closing, and this one.
func (s *Suite) aheadRoom() (func(), bool) { return s.live.reserve(s.liveBound()) }

// open starts one scenario's session in the run's browser, one open at a time; its failure
// evidence goes to store under runDir. The session counts as live from the start of its
// open to the end of its Close.
func (s *Suite) open(ctx context.Context, spec SessionSpec, store *artifacts.Store, runDir string, counted func()) (Session, error) {
	opts := s.opts.Session
	opts.AllowedOrigins = spec.Origins
	opts.Subresources, opts.ServiceWorkers, opts.WebRTC = spec.Subresources, spec.ServiceWorkers, spec.WebRTC
	opts.Viewport = spec.Viewport
	opts.TestIDAttribute = spec.TestIDAttribute
	opts.Model = spec.Model // the scenario's as loaded (--model > file > config), not Session's
	opts.Secrets = s.opts.Secrets
	opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: runDir, Owner: spec.ID, Redaction: spec.Redaction, OnFailure: true}
	switch {
	case opts.Profile != "":
		// The session launches its own browser on the profile (NewSuite: one at a time).
	case s.browserUDP != nil && runtime.NeedsWebRTCUDP(opts):
		opts.Allocator = s.browserUDP
	default:
		opts.Allocator = s.browser
	}
	opts.OnRelaunch = func(rl runtime.Relaunch) { s.relaunched(rl, spec.Event) }
	onCrash := opts.OnBrowserCrash
	opts.OnBrowserCrash = func() {
		s.ahead.crashed() // what was opened ahead in that browser is stale
		if onCrash != nil {
			onCrash()
		}
	}
	release := counted // the look-ahead counted its session when it decided to open it
	if release == nil {
		// A scenario started while its predecessor's session still closes (the slot is
		// freed when operations end) waits for that close rather than exceed the bound.
		release = s.live.await(ctx, s.liveBound(), budgets.ProcessStopGrace().Ceiling)
	}
	select {
	case s.opening <- struct{}{}:
	case <-ctx.Done():
		release()
		return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeCancelled, transport.RetrySafe, transport.NotAttempted,
			"the scenario ended while waiting to open its browser session")
	}
	rt, err := runtime.Open(ctx, opts)
	<-s.opening
	if err != nil {
		release()
		return nil, err
	}
	s.version.Do(func() { s.rep.Browser.Version = rt.BrowserVersion() })
	return &suiteSession{Runtime: rt, release: release, closed: s.ahead.fill}, nil
}

// suiteSession is a session of the suite's: a runtime that stops counting as live once
// closed, and says how long opening it ahead took (0: opened by its scenario).
type suiteSession struct {
	*runtime.Runtime
	release     func()
	closed      func()
	once        sync.Once
	openedAhead int64
}

func (ss *suiteSession) Close() error {
	err := ss.Runtime.Close()
	ss.once.Do(ss.release)
	ss.closed() // a session fewer: the look-ahead may have room again
	return err
}

func (ss *suiteSession) openedAheadMs() int64 { return ss.openedAhead }

// liveSessions counts the suite's sessions from the start of their open to the end of their
// close, and the most there ever were at once (the bound is Jobs+1).
type liveSessions struct {
	mu         sync.Mutex
	live, peak int
	freed      chan struct{} // closed (and dropped) when a session is uncounted; nil: nobody waits
}

// add counts one more session; the func it returns uncounts it, once.
func (c *liveSessions) add() func() {
	release, _ := c.reserve(0)
	return release
}

// reserve counts one more session if fewer than limit are live (limit 0: whatever the
// count); the func it returns uncounts it, once.
func (c *liveSessions) reserve(limit int) (func(), bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if limit > 0 && c.live >= limit {
		return nil, false
	}
	return c.countLocked(), true
}

// await counts one more session once fewer than limit are live. A scenario whose slot was
// freed early (its predecessor's session still closing) thus waits for that close instead
// of pushing the count past the bound. The wait is bounded: by ctx, and by wait, past which
// a close has overrun its own budget and the session is counted anyway (the scenario is
// not failed for another's slow close).
func (c *liveSessions) await(ctx context.Context, limit int, wait time.Duration) func() {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		c.mu.Lock()
		if c.live < limit {
			release := c.countLocked()
			c.mu.Unlock()
			return release
		}
		if c.freed == nil {
			c.freed = make(chan struct{})
		}
		freed := c.freed
		c.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return c.add() // the open that follows fails on ctx and uncounts it
		case <-timer.C:
			return c.add()
		}
	}
}

// countLocked counts one more session (c.mu held) and returns its uncounting, once.
func (c *liveSessions) countLocked() func() {
	c.live++
	c.peak = max(c.peak, c.live)
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			c.live--
			if c.freed != nil {
				close(c.freed)
				c.freed = nil
			}
			c.mu.Unlock()
		})
	}
}

func (c *liveSessions) peakLive() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peak
}

// relaunched records that opening a scenario's session replaced the run's dead browser: the
// scenario's runtime.relaunch event and a notice.
func (s *Suite) relaunched(rl runtime.Relaunch, event func(kind, name, status string)) {
	if rl.Cleanup != nil {
		fmt.Fprintf(s.opts.Notices, "fastbrowser: the dead browser could not be cleaned up: %v\n", rl.Cleanup)
	}
	status := "ok"
	if rl.Err != nil {
		status = "failed"
	}
	if event != nil {
		event("runtime", "relaunch", status)
	}
	fmt.Fprintf(s.opts.Notices, "fastbrowser: the browser died (%s); relaunch for the remaining scenarios: %s\n", rl.Died, status)
}

// keepOpen is Env.BeforeClose with SuiteOptions.KeepOpen: an interrupted scenario closes at
// once.
func (s *Suite) keepOpen(ctx context.Context, _ *ScenarioReport, rt Session) {
	if ctx.Err() != nil {
		return
	}
	s.keptOpen.Store(true)
	devtools := ""
	if b, ok := rt.(interface {
		Attached() bool
		DevToolsURL() string
	}); ok && !b.Attached() {
		devtools = b.DevToolsURL()
	}
	s.opts.KeepOpen(ctx, devtools)
}
