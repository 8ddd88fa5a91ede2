package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// schemaCommand prints the scenario file v1 JSON Schema, for editors and CI linters.
func schemaCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema (draft 2020-12) of scenario file v1",
		Description: "Prints the schema editors and linters can check scenario files with, e.g.\n" +
			"fastbrowser schema > scenario.schema.json. `fastbrowser validate` stays the authority:\n" +
			"it also refuses what a schema cannot express (duplicate ids, forward references, …).",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("schema takes no arguments")
			}
			_, err := st.stdout.Write(scenario.SchemaJSON)
			return err
		},
	}
}
