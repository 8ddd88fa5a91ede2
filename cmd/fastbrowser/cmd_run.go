package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	goruntime "runtime"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/reportview"
	"github.com/fastbrowser/fastbrowser/transport"
)

func runCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "run scenario files; write DIR/report.json, DIR/junit.xml, DIR/report.html (exit 0 passed or flaky, 1 failed or error, 2 invalid input, 130 interrupted)",
		UsageText: "fastbrowser run [--out DIR] [--jobs N] [--shard i/n] [--grep RE] [--grep-invert RE] [--fail-fast] [--retries N] [--trace MODE] [--open-ahead=false] [--server-log on-failure|always|never] [--config FILE] [--project NAME]... [--var NAME=VALUE]... [--base-url URL [--readiness-url URL]]\n" +
			"                [--model PROVIDER:MODEL [--model-base-url URL] [--model-api-key-env NAME]]\n" +
			"                [--browser PATH [--profile DIR] | --cdp-url URL] [--headed] [--artifacts-mode private|group] [--json] FILE|DIR...",
		Flags: append(append(browserFlags(),
			&cli.StringFlag{Name: "out", Value: "fastbrowser-results", Usage: "directory for report.json, junit.xml, report.html and artifacts/ (0700; 0750 with --artifacts-mode group)"},
			&cli.IntFlag{Name: "jobs", Value: goruntime.NumCPU(), Usage: "scenarios run in parallel, each in its own browser context; files naming the same managed server share one instance for the run, files naming different servers on one address take turns"},
			&cli.StringFlag{Name: "shard", Usage: "run only share `i/n` of the files (deterministic: every i-th of the sorted list), for CI matrix jobs"},
			&cli.StringFlag{Name: "grep", Usage: "run only scenarios whose id, description or tags match `RE` (Go regexp, case-insensitive)"},
			&cli.StringFlag{Name: "grep-invert", Usage: "skip scenarios whose id, description or tags match `RE` (Go regexp, case-insensitive)"},
			&cli.StringFlag{Name: "trace", Value: string(scenario.TraceOnFailure), Usage: "keep a step trace (a redacted screenshot, outline, console and network after each operation) for: `MODE` off, on (every scenario), on-failure (a scenario whose final result failed) or retain-on-failure (every failed attempt)"},
			&cli.BoolFlag{Name: "fail-fast", Usage: "start no scenario after one failed (those are reported skipped)"},
			&cli.BoolFlag{Name: "open-ahead", Value: true, Usage: "open the next scenario's browser session while scenarios run (--open-ahead=false: each scenario opens its own when it starts)"},
			&cli.IntFlag{Name: "retries", Usage: "run a scenario that failed or errored again from the start, in a fresh browser context, up to `N` more times (at most " +
				strconv.Itoa(budgets.RunRetries) + "); passing on a retry is \"flaky\", which exits 0"},
			&cli.StringFlag{Name: "base-url", Usage: "the site under test is already running at `URL`: every scenario uses it in external mode (no managed server)"},
			&cli.StringFlag{Name: "readiness-url", Usage: "with --base-url: the `URL` to probe for readiness (default: the base URL)"},
			&cli.BoolFlag{Name: "json", Usage: "print only the run summary as JSON on stdout"},
			&cli.BoolFlag{Name: "update", Usage: "write each healed recording of an act in words back into its scenario (or fragment) file, in place"},
			artifactsModeFlag(),
			serverLogFlag(),
			configFlag(),
			projectFlag(), varFlag(),
			runProfileFlag(),
		), modelFlags()...),
		Action: func(c *cli.Context) error {
			if err := checkBrowserFlags(c); err != nil {
				return err
			}
			mode, err := artifactsMode(c)
			if err != nil {
				return err
			}
			if _, err := serverLog(c); err != nil {
				return err
			}
			if n := c.Int("jobs"); n < 1 || n > budgets.RunJobs {
				return usageError("--jobs %d: expected 1 to %d", n, budgets.RunJobs)
			}
			if n := c.Int("retries"); n < 0 || n > budgets.RunRetries {
				return usageError("--retries %d: expected 0 to %d (a scenario that needs more reruns to pass is broken, not flaky)", n, budgets.RunRetries)
			}
			sh, err := scenario.ParseShard(c.String("shard"))
			if err != nil {
				return usageError("%v", err)
			}
			over := scenario.Overrides{BaseURL: c.String("base-url"), ReadinessURL: c.String("readiness-url")}
			if err := scenario.CheckOverrides(over); err != nil {
				return usageError("%v", err)
			}
			if over.Model, err = modelFromFlags(c); err != nil {
				return err
			}
			files, err := expandArgs(c.Args().Slice())
			if err != nil {
				return err
			}
			// The config is found from the first FILE|DIR given, before sharding, so every
			// shard of a run uses the same one.
			cfg, cfgErr := runConfig(c, c.Args().First())
			var loaded []*scenario.Loaded
			var errs []error
			if cfgErr != nil {
				errs = []error{cfgErr}
			} else {
				over.Config, over.ModelKnown = cfg, true // --model, the config and the files: every model source
				if loaded, errs, err = loadProjects(c, sh.Pick(files), over); err != nil {
					return err
				}
			}
			for _, l := range loaded {
				if err := scenario.CheckSecrets(l, st.lookup()); err != nil {
					errs = append(errs, err)
				}
			}
			if len(errs) > 0 {
				if c.Bool("json") {
					printInvalidJSON(st, errs)
				}
				for _, e := range errs {
					fmt.Fprintln(st.stderr, e)
				}
				if cfgErr != nil {
					return exitWith(exitInvalid, "the run config is invalid; nothing ran")
				}
				return exitWith(exitInvalid, "%d invalid scenario file(s); nothing ran", len(errs))
			}
			if loaded, err = scenario.Grep(c.String("grep"), c.String("grep-invert"), loaded); err != nil {
				// In one shard of many, no match is an empty shard (another shard has them).
				if !errors.Is(err, scenario.ErrNoMatch) || sh.Total <= 1 {
					return usageError("%v", err)
				}
				loaded = nil
			}
			rs := settingsOf(c, cfg)
			// Every file of the suite, this shard's or not, so merge-reports can check the
			// shards it is given are of one suite and make all of it.
			rs.suite, err = scenario.DescribeSuite(files, sh, scenario.Selection{Grep: c.String("grep"), GrepInvert: c.String("grep-invert"), Projects: c.StringSlice("project")})
			if err != nil {
				return usageError("%v", err)
			}
			if rs.tls != nil && c.String("cdp-url") != "" {
				return usageError("the run config's tls needs a browser fastbrowser launches (its egress proxy carries the trust); it does not go with --cdp-url")
			}
			if rs.trace, err = scenario.ParseTraceMode(rs.traceFlag); err != nil {
				return usageError("--trace: %v", err)
			}
			if rs.profile, err = runProfile(c, rs.jobs); err != nil {
				return err
			}
			if rs.profile != "" {
				// Held before anything starts (the out dir, hooks, servers, a browser).
				release, err := holdRunProfile(rs.profile)
				if err != nil {
					return err
				}
				defer release()
			}
			out := c.String("out")
			if err := prepareOutDir(out, mode); err != nil {
				if c.Bool("json") {
					printInvalidJSON(st, []error{err}) // invalid_request, the message naming the path
				}
				return err
			}
			if len(loaded) == 0 && !c.Bool("json") {
				fmt.Fprintf(st.stdout, "shard %d/%d has no scenario files\n", sh.Index, sh.Total)
			}
			return runScenarios(c, st, loaded, out, mode, rs)
		},
	}
}

// runSettings are run's --jobs and --retries, taken from the run config when not given, and
// the config file used.
type runSettings struct {
	jobs, retries int
	config        string
	traceFlag     string              // --trace, or the config's trace when not given
	trace         scenario.TraceMode  // traceFlag, checked
	tls           *runtime.TLSTrust   // the run config's tls, read (nil: none)
	profile       string              // --profile, absolute, held for the run ("": none)
	suite         *scenario.SuiteInfo // the suite and shard, recorded in report.json
}

func settingsOf(c *cli.Context, cfg *scenario.RunConfig) runSettings {
	s := runSettings{jobs: c.Int("jobs"), retries: c.Int("retries"), config: configPath(cfg), traceFlag: c.String("trace"), tls: cfg.TLSTrust()}
	if cfg != nil && cfg.Trace != "" && !c.IsSet("trace") {
		s.traceFlag = cfg.Trace
	}
	switch {
	case cfg != nil && cfg.Jobs != nil && !c.IsSet("jobs"):
		s.jobs = *cfg.Jobs
	case c.String("profile") != "" && !c.IsSet("jobs"):
		s.jobs = 1 // one browser on a persistent profile at a time (runProfile)
	}
	if cfg != nil && cfg.Retries != nil && !c.IsSet("retries") {
		s.retries = *cfg.Retries
	}
	return s
}

func runScenarios(c *cli.Context, st *state, loaded []*scenario.Loaded, out string, mode artifacts.Mode, rs runSettings) error {
	ro := newRunOutput(st, mode)
	defer ro.flush()
	logs, _ := serverLog(c) // checked by the action
	var outputLog io.Writer
	if !c.Bool("json") { // --json's stdout is the summary alone
		outputLog = logs.outputLog(ro.st.stdout)
	}
	suite, err := newSuite(c, ro, loaded, out, scenario.SuiteOptions{Jobs: rs.jobs, FailFast: c.Bool("fail-fast"), Retries: rs.retries, Trace: rs.trace, SerialOpen: !c.Bool("open-ahead"),
		Session:   runtime.Options{Profile: rs.profile, TLS: rs.tls},
		OutputLog: outputLog,
		Emit: func(sr scenario.ScenarioReport) {
			if !c.Bool("json") {
				printScenario(ro.st, sr, filepath.Join(out, "artifacts"), logs)
			}
		}})
	if err != nil {
		return err
	}
	defer suite.Close()
	if !c.Bool("json") && rs.config != "" {
		fmt.Fprintf(ro.st.stdout, "config: %s\n", rs.config)
	}
	if !c.Bool("json") && len(loaded) > 1 {
		fmt.Fprintln(ro.st.stdout, runHeader(len(loaded), rs.jobs, suite.Servers()))
	}
	rep := suite.Run(c.Context)
	rep.Suite = rs.suite
	reportPath, err := writeReports(out, rep, ro)
	if err != nil {
		return err
	}
	counts := rep.Count()
	updated := healedRecordings(ro.st, rep, c.Bool("update"), c.Bool("json"))
	if c.Bool("json") {
		sum := newRunSummary(rep, reportPath)
		sum.Config = rs.config
		sum.Healed, sum.Updated = rep.HealedCount(), updated
		_ = json.NewEncoder(ro.st.stdout).Encode(sum)
	} else {
		fmt.Fprintf(ro.st.stdout, "\n%s in %.1fs\nreport: %s\n", summaryCounts(rep), float64(rep.DurationMs)/1000, reportPath)
		if counts.Failed+counts.Error+counts.Flaky > 0 { // a flaky scenario's failed attempts are worth a look too
			fmt.Fprintf(ro.st.stdout, "html:   %s\n", filepath.Join(out, "report.html"))
		}
	}
	return exitForStatus(rep.Status)
}

// exitForStatus is the exit of a finished run: 0 passed (flaky scenarios included, as
// Playwright does), 130 interrupted, else 1.
func exitForStatus(status string) error {
	switch status {
	case scenario.StatusPassed, scenario.StatusFlaky:
		return nil
	case scenario.StatusInterrupted:
		return exitWith(exitInterrupted, "")
	}
	return exitWith(exitFailed, "")
}

// printScenario writes one progress line per finished scenario, plus each failing
// operation (a soft assertion's too, with expected/received, the call log and the code
// frame: scenario.Failure) and the scenario error (of the last attempt, when it
// ran more than once) and the last lines of the hook and server logs, read from
// artifactsDir, as logs says: by default only those of a hook or server that failed.
func printScenario(st *state, sr scenario.ScenarioReport, artifactsDir string, logs serverLogMode) {
	label := map[string]string{scenario.StatusPassed: "PASS", scenario.StatusFailed: "FAIL", scenario.StatusError: "ERROR", scenario.StatusInterrupted: "INTERRUPTED",
		scenario.StatusSkipped: "SKIP", scenario.StatusFlaky: "FLAKY"}[sr.Status]
	attempts := ""
	switch n := len(sr.Attempts); {
	case n > 1 && sr.Status == scenario.StatusFlaky:
		attempts = fmt.Sprintf(", passed on attempt %d", n)
	case n > 1:
		attempts = fmt.Sprintf(", %d attempts", n)
	}
	fmt.Fprintf(st.stdout, "%-5s %s (%d ms%s)\n", label, sr.Title(), sr.DurationMs, attempts)
	for _, op := range sr.Operations {
		if op.Error != nil {
			fmt.Fprintf(st.stdout, "      operations[%d] %s: %s: %s\n", op.Index, op.Name(), op.Error.Code, op.Error.Message)
			// Expected/received, the call log and the code frame (the line above said the
			// message).
			for _, line := range scenario.FailureOf(&op).Lines(false) {
				fmt.Fprintf(st.stdout, "        %s\n", line)
			}
			reportview.WriteNetworkLines(st.stdout, "        ", artifactsDir, op.Evidence)
		}
		if h := op.Healed; h != nil {
			fmt.Fprintf(st.stdout, "      operations[%d] %s: %s\n", op.Index, op.Name(), op.HealedText())
		}
	}
	if sr.Error != nil {
		fmt.Fprintf(st.stdout, "      %s: %s\n", sr.Error.Code, sr.Error.Message)
	}
	if sr.SkipReason != "" {
		fmt.Fprintf(st.stdout, "      %s\n", sr.SkipReason)
	}
	printSourceLogs(st.stdout, &sr, artifactsDir, logs)
}

// summaryCounts is the summary line's tally: passed, failed and error always; flaky,
// skipped and interrupted when there are any (interrupted are not counted as errors here).
func summaryCounts(rep *scenario.Report) string {
	counts := rep.Count()
	interrupted := 0
	for _, s := range rep.Scenarios {
		if s.Status == scenario.StatusInterrupted {
			interrupted++
		}
	}
	line := fmt.Sprintf("%d passed", counts.Passed)
	if counts.Flaky > 0 {
		line += fmt.Sprintf(", %d flaky", counts.Flaky)
	}
	line += fmt.Sprintf(", %d failed, %d error", counts.Failed, counts.Error-interrupted)
	if counts.Skipped > 0 {
		line += fmt.Sprintf(", %d skipped", counts.Skipped)
	}
	if interrupted > 0 {
		line += fmt.Sprintf(", %d interrupted", interrupted)
	}
	if n := rep.HealedCount(); n > 0 {
		line += fmt.Sprintf(" (%d operation(s) healed)", n)
	}
	return line
}

// printInvalidJSON is --json's one object when files are invalid and nothing ran: each
// refusal with its file, path, code and message.
func printInvalidJSON(st *state, errs []error) {
	type refusal struct {
		File    string         `json:"file,omitempty"`
		Project string         `json:"project,omitempty"` // the project it was loaded for
		Path    string         `json:"path,omitempty"`
		Code    transport.Code `json:"code"`
		Message string         `json:"message"`
	}
	out := struct {
		Version int       `json:"version"`
		Status  string    `json:"status"`
		Errors  []refusal `json:"errors"`
	}{Version: scenario.ReportVersion, Status: "invalid"}
	for _, e := range errs {
		var ve *scenario.ValidationError
		if errors.As(e, &ve) {
			out.Errors = append(out.Errors, refusal{File: ve.File, Project: ve.Project, Path: ve.Path, Code: ve.Code, Message: ve.Message})
			continue
		}
		out.Errors = append(out.Errors, refusal{Code: transport.CodeInvalidRequest, Message: e.Error()})
	}
	_ = json.NewEncoder(st.stdout).Encode(out)
}
