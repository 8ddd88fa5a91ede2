package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// run builds the app and runs it with args; it returns the process exit code.
func run(ctx context.Context, st *state, args []string) int {
	app := &cli.App{
		Name:      "fastbrowser",
		Usage:     "drive a real Chromium from scenario files, JSONL parents and agents: bounded, typed, safe",
		Version:   version,
		Writer:    st.stdout,
		ErrWriter: st.stderr,
		// The CLI decides exit codes itself; urfave/cli must not call os.Exit.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		Commands: []*cli.Command{
			runCommand(st),
			validateCommand(st),
			reportCommand(st),
			mergeReportsCommand(st),
			replayCommand(st),
			serveCommand(st),
			mcpCommand(st),
			sessionCommand(st),
			workerCommand(st),
			fixtureCommand(st),
			conformanceCommand(st),
			schemaCommand(st),
			versionCommand(st),
		},
	}
	err := app.RunContext(ctx, interspersed(app.Commands, args))
	if err != nil && err.Error() != "" {
		fmt.Fprintln(st.stderr, "fastbrowser:", err)
	}
	return exitCodeOf(err)
}
