package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/junit"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// runOutput is how `run` and `replay` write: through stdout and stderr scrubbed of the run's
// secret set, which also scrubs everything the suite writes (report.json, report.html,
// diagnostics).
type runOutput struct {
	st             *state // writes through the scrubbing writers
	secrets        *secrets.Set
	stdout, stderr *secrets.Writer
	mode           artifacts.Mode // --artifacts-mode: of the out dir and all written in it
}

func newRunOutput(st *state, mode artifacts.Mode) *runOutput {
	ro := &runOutput{secrets: secrets.New(), mode: mode}
	ro.stdout, ro.stderr = ro.secrets.Writer(st.stdout), ro.secrets.Writer(st.stderr)
	ro.st = st.withOutput(ro.stdout, ro.stderr)
	return ro
}

func (ro *runOutput) flush() {
	_ = ro.stdout.Flush()
	_ = ro.stderr.Flush()
}

// newSuite wires the browser flags and the run's output into a scenario.Suite (opts holds
// the command's own choices, of the session only its Profile: run's --profile, checked and
// held). A secret that cannot be registered is invalid input (exit 2).
func newSuite(c *cli.Context, ro *runOutput, loaded []*scenario.Loaded, out string, opts scenario.SuiteOptions) (*scenario.Suite, error) {
	// The run config's tls and --profile, which the browser flags do not carry.
	tls, profile := opts.Session.TLS, opts.Session.Profile
	opts.Session = runtimeOptions(c, ro.st, nil)
	opts.Session.TLS, opts.Session.Profile = tls, profile
	opts.Out, opts.Secrets, opts.Notices, opts.ArtifactsMode = out, ro.secrets, ro.st.stderr, ro.mode
	s, err := scenario.NewSuite(loaded, opts)
	if err != nil {
		return nil, exitWith(exitInvalid, "%v", err)
	}
	return s, nil
}

// writeReports writes DIR/report.json, DIR/junit.xml and DIR/report.html, all scrubbed of
// the run's secrets and in its --artifacts-mode, and returns the report.json path.
func writeReports(out string, rep *scenario.Report, ro *runOutput) (string, error) {
	set := ro.secrets
	reportPath := filepath.Join(out, "report.json")
	if err := rep.WriteFileScrubbed(reportPath, set.ScrubJSON, ro.mode); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", reportPath)
	}
	if err := junit.WriteFile(filepath.Join(out, "junit.xml"), rep, set.ScrubBytes, ro.mode); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", filepath.Join(out, "junit.xml"))
	}
	if err := writeHTMLReport(out, rep, set, ro.mode); err != nil {
		return "", exitWith(exitFailed, "cannot write %s", filepath.Join(out, "report.html"))
	}
	return reportPath, nil
}

// artifactsModeFlag is --artifacts-mode of run and replay.
func artifactsModeFlag() cli.Flag {
	return &cli.StringFlag{Name: "artifacts-mode", Value: artifacts.ModePrivate.String(),
		Usage: "who may read the out dir: `private` (directories 0700, files 0600) or group (0750, 0640: for a CI agent of your group reading as another user)"}
}

// artifactsMode reads --artifacts-mode; a bad value is invalid input (exit 2).
func artifactsMode(c *cli.Context) (artifacts.Mode, error) {
	m, err := artifacts.ParseMode(c.String("artifacts-mode"))
	if err != nil {
		return m, usageError("--artifacts-mode: %v", err)
	}
	return m, nil
}
