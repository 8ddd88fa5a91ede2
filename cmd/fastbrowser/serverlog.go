package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/reportview"
)

// serverLogMode is --server-log: when the console shows a hook's or managed server's output.
// The log artifacts (bounded, scrubbed) are kept and shown on report.html whatever it is.
type serverLogMode string

const (
	// serverLogOnFailure (the default) shows a source's output only when that source failed:
	// a hook exited non-zero or timed out, the server did not start, was not ready or exited.
	// A scenario failing its assertions against a healthy server prints no access log.
	serverLogOnFailure serverLogMode = "on-failure"
	serverLogAlways    serverLogMode = "always" // streamed as it comes, scrubbed of secrets
	serverLogNever     serverLogMode = "never"
)

func serverLogFlag() cli.Flag {
	return &cli.StringFlag{Name: "server-log", Value: string(serverLogOnFailure),
		Usage: "when the console shows hook and managed server output: `on-failure` (after a hook or server that failed, its last lines), always (streamed as it comes), never"}
}

func serverLog(c *cli.Context) (serverLogMode, error) {
	switch m := serverLogMode(c.String("server-log")); m {
	case serverLogOnFailure, serverLogAlways, serverLogNever:
		return m, nil
	}
	return "", usageError("--server-log %q: expected on-failure, always or never", c.String("server-log"))
}

// outputLog is where hook and server output streams during the run (nil: nowhere but the
// log artifacts, and FASTBROWSER_DEBUG's log).
func (m serverLogMode) outputLog(console io.Writer) io.Writer {
	if m == serverLogAlways {
		return console
	}
	return nil
}

// printSourceLogs writes, after a scenario's result, the output of its hooks and server that
// failed (on-failure); always has streamed it already and never shows none.
func printSourceLogs(w io.Writer, sr *scenario.ScenarioReport, artifactsDir string, m serverLogMode) {
	if m == serverLogOnFailure {
		reportview.WriteFailedLogs(w, "      ", artifactsDir, sr)
	}
}
