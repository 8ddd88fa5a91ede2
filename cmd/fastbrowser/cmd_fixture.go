package main

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

func fixtureCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "fixture",
		Usage: "the embedded fixture site",
		Subcommands: []*cli.Command{{
			Name:  "serve",
			Usage: "serve the fixture site until interrupted",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "addr", Value: "127.0.0.1:4310", Usage: "listen address (port 0 picks a free port)"},
				&cli.BoolFlag{Name: "log", Usage: "log one line per request (method and path) to stderr"},
			},
			Action: func(c *cli.Context) error {
				logw := st.stderr
				if !c.Bool("log") {
					logw = nil
				}
				err := fixture.Serve(c.Context, c.String("addr"), logw, func(addr string) {
					fmt.Fprintf(st.stderr, "fixture serving on http://%s\n", addr)
				})
				if errors.Is(err, syscall.EADDRINUSE) {
					return exitWith(exitFailed, "fixture serve: %s is already in use", c.String("addr"))
				}
				if err != nil {
					return exitWith(exitFailed, "fixture serve: %v", err)
				}
				return nil
			},
		}},
	}
}
