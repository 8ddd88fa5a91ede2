package main

import (
	"fmt"
	goruntime "runtime"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

func versionCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version, protocol, scenario file and report versions",
		Action: func(*cli.Context) error {
			fmt.Fprintf(st.stdout, "fastbrowser %s (protocol v%d, scenario file v%d, report v%d, %s)\n",
				version, transport.Version, scenario.FileVersion, scenario.ReportVersion, goruntime.Version())
			return nil
		},
	}
}
