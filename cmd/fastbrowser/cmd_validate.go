package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
)

func validateCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check scenario files strictly without running anything (exit 0 valid, 2 invalid)",
		UsageText: "fastbrowser validate [--config FILE] [--project NAME]... [--var NAME=VALUE]... FILE|DIR...",
		Flags:     []cli.Flag{configFlag(), projectFlag(), varFlag()},
		Action: func(c *cli.Context) error {
			files, err := expandArgs(c.Args().Slice())
			if err != nil {
				return err
			}
			cfg, err := runConfig(c, c.Args().First())
			if err != nil {
				fmt.Fprintln(st.stderr, err)
				return exitWith(exitInvalid, "")
			}
			if cfg != nil {
				fmt.Fprintf(st.stdout, "config: %s\n", cfg.Path)
			}
			// Every file under every project (or those --project names).
			all, errs, err := loadProjects(c, files, scenario.Overrides{Config: cfg})
			if err != nil {
				return err
			}
			var loaded []*scenario.Loaded
			for _, l := range all {
				// Secrets need not be set to validate; those that are must not be in an instruction.
				if err := scenario.CheckInstructions(l, st.lookup()); err != nil {
					errs = append(errs, err)
					continue
				}
				loaded = append(loaded, l)
			}
			for _, e := range errs {
				// Every error of the file, not only the strict decoder's first.
				list, more := scenario.AllErrors(e, budgets.ValidateErrors)
				for _, le := range list {
					fmt.Fprintln(st.stderr, le)
				}
				if more > 0 {
					fmt.Fprintf(st.stderr, "%s: … and %d more errors\n", list[0].(*scenario.ValidationError).File, more)
				}
			}
			for _, l := range loaded {
				project := ""
				if l.Project != "" {
					project = "project " + l.Project + ", "
				}
				fmt.Fprintf(st.stdout, "ok %s (%s%s, %d operations)\n", l.Path, project, l.ID, len(l.Operations))
			}
			if len(errs) > 0 {
				return exitWith(exitInvalid, "")
			}
			return nil
		},
	}
}
