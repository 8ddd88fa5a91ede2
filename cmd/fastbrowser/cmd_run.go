package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/secrets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

func runCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run scenario files and write DIR/report.json (exit 0 passed, 1 failed or error, 2 invalid input, 130 interrupted)",
		UsageText: "fastbrowser run [--out DIR] [--browser PATH | --cdp-url URL] [--headed] [--json] FILE|DIR...",
		Flags: append(browserFlags(),
			&cli.StringFlag{Name: "out", Value: "fastbrowser-results", Usage: "directory for report.json (created 0700)"},
			&cli.BoolFlag{Name: "json", Usage: "print only the run summary as JSON on stdout"},
		),
		Action: func(c *cli.Context) error {
			if err := checkBrowserFlags(c); err != nil {
				return err
			}
			files, err := expandArgs(c.Args().Slice())
			if err != nil {
				return err
			}
			loaded, errs := loadAll(files)
			for _, l := range loaded {
				if err := scenario.CheckSecrets(l, st.lookup()); err != nil {
					errs = append(errs, err)
				}
			}
			if len(errs) > 0 {
				for _, e := range errs {
					fmt.Fprintln(st.stderr, e)
				}
				return exitWith(exitInvalid, "%d invalid scenario file(s); nothing ran", len(errs))
			}
			out := c.String("out")
			if err := os.MkdirAll(out, 0o700); err != nil {
				return usageError("--out %s: cannot create the directory", out)
			}
			return runScenarios(c, st, loaded, out)
		},
	}
}

// sharedBrowser launches one Chromium for the whole run, on first use, so a run whose
// fixtures never come up never starts a browser. Each scenario gets its own worker and
// browser context in it.
type sharedBrowser struct {
	once    sync.Once
	browser *chromium.Browser
	err     error
}

func (sb *sharedBrowser) wsURL(ctx context.Context, opts runtime.Options) (string, error) {
	sb.once.Do(func() {
		sb.browser, sb.err = chromium.Launch(ctx, chromium.Options{Executable: opts.Executable, Headed: opts.Headed, Log: opts.Log})
	})
	if sb.err != nil {
		return "", sb.err
	}
	return sb.browser.WebSocketURL(), nil
}

func (sb *sharedBrowser) close() {
	if sb.browser != nil {
		_ = sb.browser.Close()
	}
}

func runScenarios(c *cli.Context, st *state, loaded []*scenario.Loaded, out string) error {
	started := time.Now()
	rep := &scenario.Report{Version: scenario.ReportVersion, RunID: scenario.NewRunID(started), StartedAt: started.UTC(),
		Scenarios: []scenario.ScenarioReport{}}
	// Every secret a scenario types is scrubbed from everything this run writes: stdout,
	// stderr, the reports, the evidence (runtime/secrets).
	secretSet := secrets.New()
	stdout, stderr := secretSet.Writer(st.stdout), secretSet.Writer(st.stderr)
	defer stdout.Flush()
	defer stderr.Flush()
	st = st.withOutput(stdout, stderr)
	artifactsDir := filepath.Join(out, "artifacts")
	stores := &evidenceStores{root: artifactsDir}
	defer stores.close()
	rep.Browser.Attached = c.String("cdp-url") != ""
	sb := &sharedBrowser{}
	defer sb.close()
	var versionOnce sync.Once
	env := scenario.Env{
		Lookup: st.lookupEnv,
		Log:    debugLog(st),
		Open: func(ctx context.Context, spec scenario.SessionSpec) (*runtime.Runtime, error) {
			opts := runtimeOptions(c, st, spec.Origins)
			opts.Subresources, opts.ServiceWorkers = spec.Subresources, spec.ServiceWorkers
			opts.Secrets = secretSet
			store, err := stores.forScenario(spec.ID)
			if err != nil {
				return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeInternal, transport.RetryNever, transport.NotAttempted, "the artifact store %s cannot be opened", artifactsDir)
			}
			opts.Evidence = &runtime.EvidenceOptions{Store: store, RunID: rep.RunID, Owner: spec.ID, Redaction: spec.Redaction, OnFailure: true}
			if opts.CDPURL == "" {
				ws, err := sb.wsURL(ctx, opts)
				if err != nil {
					return nil, launchFailed(err)
				}
				opts.CDPURL = ws
			}
			rt, err := runtime.Open(ctx, opts)
			if err == nil {
				versionOnce.Do(func() { rep.Browser.Version = rt.BrowserVersion() })
			}
			return rt, err
		},
	}
	for _, l := range loaded {
		if c.Context.Err() != nil {
			break
		}
		sr := scenario.Run(c.Context, l, env)
		rep.Scenarios = append(rep.Scenarios, sr)
		if !c.Bool("json") {
			printScenario(st, sr)
		}
	}
	rep.DurationMs = time.Since(started).Milliseconds()
	rep.Summarise()
	if c.Context.Err() != nil {
		rep.Status = scenario.StatusInterrupted
	}
	reportPath := filepath.Join(out, "report.json")
	if err := rep.WriteFileScrubbed(reportPath, secretSet.ScrubBytes); err != nil {
		return exitWith(exitFailed, "cannot write %s", reportPath)
	}
	if err := writeHTMLReport(out, rep, secretSet.ScrubBytes); err != nil {
		return exitWith(exitFailed, "cannot write %s", filepath.Join(out, "report.html"))
	}
	counts := rep.Count()
	if c.Bool("json") {
		_ = json.NewEncoder(st.stdout).Encode(struct {
			Version    int             `json:"version"`
			Status     string          `json:"status"`
			Counts     scenario.Counts `json:"counts"`
			DurationMs int64           `json:"durationMs"`
			Report     string          `json:"report"`
		}{scenario.ReportVersion, rep.Status, counts, rep.DurationMs, reportPath})
	} else {
		fmt.Fprintf(st.stdout, "\n%d passed, %d failed, %d error in %.1fs\nreport: %s\n",
			counts.Passed, counts.Failed, counts.Error, time.Since(started).Seconds(), reportPath)
		if counts.Failed+counts.Error > 0 {
			fmt.Fprintf(st.stdout, "html:   %s\n", filepath.Join(out, "report.html"))
		}
	}
	switch rep.Status {
	case scenario.StatusPassed:
		return nil
	case scenario.StatusInterrupted:
		return exitWith(exitInterrupted, "")
	}
	return exitWith(exitFailed, "")
}

func launchFailed(err error) error {
	var le *chromium.LaunchError
	msg := "the browser could not be started"
	if errors.As(err, &le) {
		msg = le.Reason
	}
	return transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "%s", msg)
}

// printScenario writes one progress line per finished scenario, plus the failing
// operation or scenario error.
func printScenario(st *state, sr scenario.ScenarioReport) {
	label := map[string]string{scenario.StatusPassed: "PASS", scenario.StatusFailed: "FAIL", scenario.StatusError: "ERROR", scenario.StatusInterrupted: "INTERRUPTED"}[sr.Status]
	fmt.Fprintf(st.stdout, "%-5s %s (%d ms)\n", label, sr.ID, sr.DurationMs)
	for _, op := range sr.Operations {
		if op.Error != nil {
			name := op.Op
			if op.ID != "" {
				name = op.ID + " (" + op.Op + ")"
			}
			fmt.Fprintf(st.stdout, "      operations[%d] %s: %s: %s\n", op.Index, name, op.Error.Code, op.Error.Message)
		}
	}
	if sr.Error != nil {
		fmt.Fprintf(st.stdout, "      %s: %s\n", sr.Error.Code, sr.Error.Message)
	}
}
