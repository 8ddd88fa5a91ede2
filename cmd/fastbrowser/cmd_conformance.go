package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/runtime/conformance"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// conformanceCommand runs the executor conformance suite (docs/conformance.md) against a
// worker: ours by default, or any program that speaks the worker protocol.
func conformanceCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "conformance",
		Usage: "run the executor conformance suite against a worker; exit 1 if any check fails",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "worker", Usage: "the worker's command line `CMD` (split on spaces; the runtime appends --cdp-url, --allowed-origin, …); default this binary's own worker"},
			&cli.StringFlag{Name: "fixture-url", Usage: "a site serving the fixture's pages (`fastbrowser fixture serve`) at `URL`; default the embedded fixture on a free loopback port"},
			&cli.StringFlag{Name: "report", Value: "conformance-report.json", Usage: "where the JSON report goes (`FILE`)"},
			&cli.StringFlag{Name: "browser", Usage: "Chromium executable to launch (default /usr/bin/chromium)"},
			&cli.StringFlag{Name: "config", Usage: "config `FILE` (fastbrowser.json) whose \"session\" block the suite's host opens its sessions with (docs/scenarios.md \"Session config\")"},
			&cli.StringSliceFlag{Name: "binding-origin", Usage: "the host's binding (repeat; must allow the fixture's origin); default the config's bindingOrigins, else the fixture's origin and a canary of the suite's own"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("conformance takes no arguments, got %q", c.Args().First())
			}
			opts := conformance.Options{FixtureURL: c.String("fixture-url"), Executable: c.String("browser"), Out: st.stdout, Log: debugLog(st)}
			if opts.FixtureURL != "" {
				if _, err := conformance.FixtureOrigin(opts.FixtureURL); err != nil {
					return usageError("conformance: --fixture-url: %v", err)
				}
			}
			if path := c.String("config"); path != "" {
				cfg, err := scenario.LoadConfig(path)
				if err != nil {
					return usageError("conformance: --config: %v", err)
				}
				opts.Config = cfg.Session
			}
			opts.BindingOrigins = c.StringSlice("binding-origin")
			switch w := strings.Fields(c.String("worker")); {
			case c.IsSet("worker") && len(w) == 0:
				return usageError("conformance: --worker: expected a command line, got %q", c.String("worker"))
			case len(w) > 0:
				opts.WorkerPath, opts.WorkerArgs = w[0], w[1:]
			default:
				opts.WorkerPath, opts.WorkerArgs = st.workerPath, workerArgs(st)
			}
			rep, runErr := conformance.Run(c.Context, opts)
			if err := rep.WriteFile(c.String("report")); err != nil {
				return exitWith(exitFailed, "conformance: writing the report: %v", err)
			}
			fmt.Fprintf(st.stderr, "conformance report: %s\n", c.String("report"))
			switch {
			case runErr != nil:
				return exitWith(exitFailed, "conformance: %v", runErr)
			case !rep.OK():
				return exitWith(exitFailed, "")
			}
			return nil
		},
	}
}
