package scenario

import (
	"context"
	"fmt"

	"github.com/fastbrowser/fastbrowser/artifacts"
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

// env is the runner environment of a scenario's first attempt.
func (s *Suite) env(l *Loaded) Env { return s.attemptEnv(l, 1) }

// attemptEnv is one attempt's runner environment: its own worker, browser context and
// artifact store (evidence, and the hook and server logs), in the run's browser; a retry's
// artifacts go to a directory of their own (AttemptRunDir).
func (s *Suite) attemptEnv(l *Loaded, k int) Env {
	store, storeErr := s.stores.forScenario(l.ID)
	runDir := AttemptRunDir(s.rep.RunID, k)
	env := Env{
		Lookup: s.opts.Session.LookupEnv,
		Log:    s.opts.Session.Log,
		Store:  store, // nil when it cannot be opened: logs are then only drained
		RunID:  runDir,
		Scrub:  s.opts.Secrets.ScrubBytes,
		Open: func(ctx context.Context, spec SessionSpec) (Session, error) {
			if storeErr != nil {
				return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeInternal, transport.RetryNever, transport.NotAttempted,
					"the artifact store %s cannot be opened: %s", s.stores.root, artifacts.Cause(storeErr))
			}
			return s.open(ctx, spec, store, runDir)
		},
	}
	env.shared = s.servers.shared[l]
	if s.opts.KeepOpen != nil {
		env.BeforeClose = s.keepOpen
	}
	return env
}

// open starts one scenario's session in the run's browser, one open at a time; its failure
// evidence goes to store under runDir.
func (s *Suite) open(ctx context.Context, spec SessionSpec, store *artifacts.Store, runDir string) (Session, error) {
	opts := s.opts.Session
	opts.AllowedOrigins = spec.Origins
	opts.Subresources, opts.ServiceWorkers, opts.WebRTC = spec.Subresources, spec.ServiceWorkers, spec.WebRTC
	opts.Viewport = spec.Viewport
	opts.Model = spec.Model // the scenario's as loaded (--model > file > config), not Session's
	opts.Secrets = s.opts.Secrets
	opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: runDir, Owner: spec.ID, Redaction: spec.Redaction, OnFailure: true}
	opts.Allocator = s.browser
	if s.browserUDP != nil && runtime.NeedsWebRTCUDP(opts) {
		opts.Allocator = s.browserUDP
	}
	opts.OnRelaunch = func(rl runtime.Relaunch) { s.relaunched(rl, spec.Event) }
	select {
	case s.opening <- struct{}{}:
	case <-ctx.Done():
		return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeCancelled, transport.RetrySafe, transport.NotAttempted,
			"the scenario ended while waiting to open its browser session")
	}
	rt, err := runtime.Open(ctx, opts)
	<-s.opening
	if err != nil {
		return nil, err
	}
	s.version.Do(func() { s.rep.Browser.Version = rt.BrowserVersion() })
	return rt, nil
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
func (s *Suite) keepOpen(ctx context.Context, _ *ScenarioReport) {
	if ctx.Err() != nil {
		return
	}
	s.keptOpen.Store(true)
	s.opts.KeepOpen(ctx)
}
