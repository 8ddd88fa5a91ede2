package main

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/junit"
	"github.com/fastbrowser/fastbrowser/transport"
)

// runSession is what one `run` (or `replay`) shares across its scenarios: the report, one
// lazily launched browser, the per-scenario artifact stores under DIR/artifacts, and the
// secret set that everything the run writes is scrubbed with (stdout, stderr, report.json,
// report.html, diagnostics).
type runSession struct {
	c       *cli.Context
	st      *state // writes through the scrubbing writers
	out     string
	started time.Time
	rep     *scenario.Report
	secrets *secrets.Set
	stdout  *secrets.Writer
	stderr  *secrets.Writer
	stores  *evidenceStores
	browser *sharedBrowser
	version sync.Once
	// opening lets one session open at a time. Opening is mostly Chromium starting a
	// renderer for the new context; concurrent opens contend for the same CPU and take as
	// long in total, but each one alone can then run past the worker-ready budget on a
	// loaded machine (seen with --jobs 4 on 2 CPUs). Operations still run in parallel. The
	// wait is bounded by the scenario's context and by each open's own budget.
	opening chan struct{}
	// beforeClose, when set, runs before a scenario's browser session closes (replay
	// --keep-open).
	beforeClose func(ctx context.Context, rep *scenario.ScenarioReport)
	// keptOpen: the run ended and then waited for Ctrl-C to close (replay --keep-open), so
	// that Ctrl-C does not make the run interrupted.
	keptOpen bool
	// browserUDP is launched only for a scenario that allows WebRTC under a "*" policy: the
	// shared browser's profile turns WebRTC's UDP off (runtime/webrtc.go).
	browserUDP *sharedBrowser
}

func newRunSession(c *cli.Context, st *state, out string) *runSession {
	started := time.Now()
	rs := &runSession{c: c, out: out, started: started, secrets: secrets.New(), browser: &sharedBrowser{}, browserUDP: &sharedBrowser{udp: true}, opening: make(chan struct{}, 1),
		stores: &evidenceStores{root: filepath.Join(out, "artifacts")},
		rep: &scenario.Report{Version: scenario.ReportVersion, RunID: scenario.NewRunID(started), StartedAt: started.UTC(),
			Scenarios: []scenario.ScenarioReport{}}}
	rs.rep.Browser.Attached = c.String("cdp-url") != ""
	rs.stdout, rs.stderr = rs.secrets.Writer(st.stdout), rs.secrets.Writer(st.stderr)
	rs.st = st.withOutput(rs.stdout, rs.stderr)
	return rs
}

// registerSecrets adds every secret the scenarios name (typed text, server and hook env) to
// the run's set before anything runs or prints, so each is masked from the first byte on,
// not only once an act types it.
func (rs *runSession) registerSecrets(loaded []*scenario.Loaded) error {
	for _, l := range loaded {
		if err := scenario.RegisterSecrets(l, rs.st.lookup(), rs.secrets); err != nil {
			return exitWith(exitInvalid, "%v", err)
		}
	}
	return nil
}

// env is one scenario's runner environment: its own worker, browser context and artifact
// store (evidence, and the hook and server logs), in the run's one browser.
func (rs *runSession) env(l *scenario.Loaded) scenario.Env {
	store, storeErr := rs.stores.forScenario(l.ID)
	return scenario.Env{
		Lookup:      rs.st.lookupEnv,
		Log:         debugLog(rs.st),
		BeforeClose: rs.beforeClose,
		Store:       store, // nil when it cannot be opened: logs are then only drained
		RunID:       rs.rep.RunID,
		Scrub:       rs.secrets.ScrubBytes,
		Open: func(ctx context.Context, spec scenario.SessionSpec) (*runtime.Runtime, error) {
			opts := runtimeOptions(rs.c, rs.st, spec.Origins)
			opts.Subresources, opts.ServiceWorkers, opts.WebRTC = spec.Subresources, spec.ServiceWorkers, spec.WebRTC
			opts.Secrets = rs.secrets
			if storeErr != nil {
				return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeInternal, transport.RetryNever, transport.NotAttempted,
					"the artifact store %s cannot be opened: %s", rs.stores.root, artifacts.Cause(storeErr))
			}
			opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: rs.rep.RunID, Owner: spec.ID, Redaction: spec.Redaction, OnFailure: true}
			attached := opts.CDPURL != ""
			if attached {
				if err := rs.browser.attachable(); err != nil {
					return nil, err
				}
				opts.OnBrowserCrash = rs.browser.noteCrash
			} else {
				sb := rs.browser
				if opts.WebRTC == runtime.WebRTCAllow && anyOrigin(spec.Origins) {
					sb = rs.browserUDP
				}
				ws, err := sb.wsURL(ctx, opts, spec.Event, rs.st.stderr)
				if err != nil {
					return nil, launchFailed(err)
				}
				opts.CDPURL = ws
			}
			select {
			case rs.opening <- struct{}{}:
			case <-ctx.Done():
				return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeCancelled, transport.RetrySafe, transport.NotAttempted,
					"the scenario ended while waiting to open its browser session")
			}
			rt, err := runtime.Open(ctx, opts)
			<-rs.opening
			if attached {
				err = rs.browser.attachResult(err)
			}
			if err == nil {
				rs.version.Do(func() { rs.rep.Browser.Version = rt.BrowserVersion() })
			}
			return rt, err
		},
	}
}

// finish summarises the run and writes DIR/report.json, DIR/junit.xml and DIR/report.html,
// all scrubbed of the run's secrets.
func (rs *runSession) finish() (string, error) {
	rs.rep.DurationMs = time.Since(rs.started).Milliseconds()
	rs.rep.Summarise()
	if rs.c.Context.Err() != nil && !rs.keptOpen {
		rs.rep.Status = scenario.StatusInterrupted
	}
	reportPath := filepath.Join(rs.out, "report.json")
	if err := rs.rep.WriteFileScrubbed(reportPath, rs.secrets.ScrubJSON); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", reportPath)
	}
	if err := junit.WriteFile(filepath.Join(rs.out, "junit.xml"), rs.rep, rs.secrets.ScrubBytes); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", filepath.Join(rs.out, "junit.xml"))
	}
	if err := writeHTMLReport(rs.out, rs.rep, rs.secrets.ScrubBytes); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", filepath.Join(rs.out, "report.html"))
	}
	return reportPath, nil
}

// close stops the browser, closes the stores (committed evidence stays) and flushes output.
func (rs *runSession) close() {
	rs.browser.close()
	rs.browserUDP.close()
	rs.stores.close()
	_ = rs.stdout.Flush()
	_ = rs.stderr.Flush()
}

// anyOrigin reports whether a scenario's base policy is "*" (scenario validation has already
// checked the list).
func anyOrigin(origins []string) bool {
	p, err := policy.Parse(origins)
	return err == nil && p.IsAny()
}
