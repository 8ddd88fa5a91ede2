package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

func replayCommand(st *state) *cli.Command {
	return &cli.Command{
		Name: "replay",
		Usage: "re-run a failed scenario of a report locally, up to and including the operation that failed, and say whether the " +
			"same failure happened again (exit like run; 2 when the scenario file changed since the run, unless --force)",
		UsageText: "fastbrowser replay [--scenario ID|'PROJECT › ID'] [--out DIR] [--headed] [--keep-open] [--force] [--config FILE] [--browser PATH | --cdp-url URL] [--artifacts-mode private|group]\n" +
			"                [--model PROVIDER:MODEL [--model-base-url URL] [--model-api-key-env NAME]] [--json] REPORT.json",
		Flags: append(append(browserFlags(),
			&cli.StringFlag{Name: "scenario", Usage: "the scenario `ID` to replay, or \"PROJECT › ID\" (default: the report's first failed scenario)"},
			&cli.StringFlag{Name: "out", Value: "fastbrowser-replay", Usage: "directory for the replay's report.json, report.html and artifacts (0700; 0750 with --artifacts-mode group)"},
			&cli.BoolFlag{Name: "keep-open", Usage: "leave the browser on the failing page until Ctrl-C (a browser it launched: its DevTools token websocket is printed to attach to)"},
			&cli.BoolFlag{Name: "force", Usage: "replay even when the scenario file's SHA-256 differs from the report's"},
			&cli.BoolFlag{Name: "json", Usage: "print only the replay summary as JSON on stdout"},
			artifactsModeFlag(),
			configFlag(),
			varFlag(),
		), modelFlags()...),
		Action: func(c *cli.Context) error {
			if err := checkBrowserFlags(c); err != nil {
				return err
			}
			mode, err := artifactsMode(c)
			if err != nil {
				return err
			}
			args := c.Args().Slice()
			if len(args) != 1 {
				return usageError("give one REPORT.json")
			}
			m, err := modelFromFlags(c)
			if err != nil {
				return err
			}
			rep, err := loadReportFile(args[0])
			if err != nil {
				return err
			}
			orig, err := pickScenario(rep, c.String("scenario"), args[0])
			if err != nil {
				return err
			}
			if f := replayFile(rep, orig.File); f != orig.File {
				resolved := *orig
				resolved.File = f
				orig = &resolved
			}
			cfg, err := runConfig(c, orig.File)
			if err != nil {
				return usageError("%v", err)
			}
			over, err := replayOverrides(c, orig, cfg)
			if err != nil {
				return err
			}
			over.Model = m
			l, err := loadForReplay(orig, over, c.Bool("force"), st)
			if err != nil {
				return err
			}
			if err := prepareOutDir(c.String("out"), mode); err != nil {
				return err
			}
			if cfg.TLSTrust() != nil && c.String("cdp-url") != "" {
				return usageError("the run config's tls needs a browser fastbrowser launches (its egress proxy carries the trust); it does not go with --cdp-url")
			}
			return replay(c, st, orig, l, mode, cfg.TLSTrust())
		},
	}
}

// pickScenario finds the scenario to replay: the one named, or the first that did not pass.
func pickScenario(rep *scenario.Report, id, reportPath string) (*scenario.ScenarioReport, error) {
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		if id != "" && (s.ID == id || s.Title() == id) || id == "" && (s.Status == scenario.StatusFailed || s.Status == scenario.StatusError) {
			return s, nil
		}
	}
	if id != "" {
		return nil, usageError("%s: no scenario %q in the report", reportPath, id)
	}
	return nil, usageError("%s: no failed scenario to replay", reportPath)
}

// loadForReplay loads the scenario file the report names (with the run config's defaults
// and --model),
// refuses it when its bytes or its fragments' changed since the run (unless forced), and cuts it after the operation that failed (a scenario that
// failed outside its operations runs whole).
func loadForReplay(orig *scenario.ScenarioReport, over scenario.Overrides, force bool, st *state) (*scenario.Loaded, error) {
	if _, err := os.Stat(orig.File); err != nil {
		return nil, usageError("%s: the scenario file of %q cannot be read (neither from the run's working directory, which the report records, nor from here)", orig.File, orig.ID)
	}
	l, err := scenario.LoadWith(orig.File, over)
	if err != nil {
		return nil, usageError("%v", err)
	}
	// The digest covers the fragments the file includes, so an edited fragment counts too.
	if got := l.SHA256; got != orig.SHA256 && !force {
		return nil, usageError("%s changed since the run (sha256 %s…, report %s…; it covers the fragments it includes); replay it anyway with --force", orig.File, got[:12], short(orig.SHA256))
	}
	if err := scenario.CheckSecrets(l, st.lookup()); err != nil {
		return nil, usageError("%v", err)
	}
	failedAt := -1
	for _, op := range orig.Operations {
		if op.Status == scenario.StatusFailed {
			failedAt = op.Index
			break
		}
	}
	if failedAt >= 0 && failedAt < len(l.Operations) {
		f := *l.File
		f.Operations = f.Operations[:failedAt+1]
		cut := *l
		cut.File = &f
		l = &cut
	}
	return l, nil
}

// short is the head of a digest read from a report (which may have been edited: never
// split a character).
func short(s string) string {
	head, _ := textclip.ClipBytes(s, 12)
	return head
}

func replay(c *cli.Context, st *state, orig *scenario.ScenarioReport, l *scenario.Loaded, mode artifacts.Mode, tls *runtime.TLSTrust) error {
	ro := newRunOutput(st, mode)
	defer ro.flush()
	opts := scenario.SuiteOptions{Session: runtime.Options{TLS: tls}} // the run config's, as run has it
	if c.Bool("keep-open") {
		opts.KeepOpen = func(ctx context.Context, devtools string) {
			if devtools != "" {
				// The token websocket: this user's processes only, so printing it to this
				// user's terminal hands it to no one else (README "Who can reach what").
				fmt.Fprintf(ro.st.stderr, "attach DevTools at %s (this user only)\n", devtools)
			}
			fmt.Fprintln(ro.st.stderr, "the browser stays on the failing page; press Ctrl-C to close it")
			<-ctx.Done()
		}
	}
	out := c.String("out")
	suite, err := newSuite(c, ro, []*scenario.Loaded{l}, out, opts)
	if err != nil {
		return err
	}
	defer suite.Close()
	rep := suite.RunOne(c.Context, l)
	sr := rep.Scenarios[0]
	reportPath, err := writeReports(out, rep, ro)
	if err != nil {
		return err
	}
	wantCode, wantAt := failureOf(orig)
	gotCode, gotAt := failureOf(&sr)
	reproduced := wantCode != "" && wantCode == gotCode && wantAt == gotAt
	if c.Bool("json") {
		_ = json.NewEncoder(ro.st.stdout).Encode(struct {
			Version    int    `json:"version"`
			Status     string `json:"status"`
			Reproduced bool   `json:"reproduced"`
			Report     string `json:"report"`
		}{scenario.ReportVersion, rep.Status, reproduced, reportPath})
	} else {
		printScenario(ro.st, sr, filepath.Join(out, "artifacts"), serverLogOnFailure)
		run := fmt.Sprintf("the run failed with %s at %s", wantCode, where(wantAt))
		if wantCode == "" {
			run = "the scenario passed in the run: there was no failure to reproduce"
		}
		fmt.Fprintf(ro.st.stdout, "\nreproduced: %t (%s; the replay %s)\nreport: %s\n", reproduced, run, outcome(gotCode, gotAt), reportPath)
	}
	return exitForStatus(rep.Status)
}

// failureOf is a scenario's failure: the code and index of its failed operation, or its
// scenario-level error (index -1).
func failureOf(s *scenario.ScenarioReport) (transport.Code, int) {
	for _, op := range s.Operations {
		if op.Status == scenario.StatusFailed && op.Error != nil {
			return op.Error.Code, op.Index
		}
	}
	if s.Error != nil {
		return s.Error.Code, -1
	}
	return "", -1
}

func where(i int) string {
	if i < 0 {
		return "the scenario level"
	}
	return fmt.Sprintf("operations[%d]", i)
}

func outcome(code transport.Code, i int) string {
	if code == "" {
		return "passed"
	}
	return fmt.Sprintf("failed with %s at %s", code, where(i))
}

// replayOverrides loads the scenario as it ran: under its project (which the run config must
// still define) and with the variable values the report recorded, --var over them.
func replayOverrides(c *cli.Context, orig *scenario.ScenarioReport, cfg *scenario.RunConfig) (scenario.Overrides, error) {
	over := scenario.Overrides{Config: cfg}
	if orig.Project != "" {
		ps, err := scenario.SelectProjects(cfg, []string{orig.Project})
		if err != nil {
			return over, usageError("the report's scenario ran under project %q: %v", orig.Project, err)
		}
		over.Project = ps[0]
	}
	flags, err := varsOf(c)
	if err != nil {
		return over, err
	}
	if len(orig.Variables)+len(flags) > 0 {
		over.Vars = map[string]string{}
		for k, v := range orig.Variables {
			over.Vars[k] = v
		}
		for k, v := range flags {
			over.Vars[k] = v
		}
	}
	return over, nil
}
