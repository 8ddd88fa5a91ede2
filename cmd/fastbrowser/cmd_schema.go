package main

import (
	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// schemaCommand prints the scenario file v1 JSON Schema, for editors and CI linters, or with
// --protocol the protocol v1 schema (generated from the transport's types).
func schemaCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema (draft 2020-12) of scenario file v1, or of protocol v1 (--protocol)",
		Description: "Prints the schema editors and linters can check scenario files with, e.g.\n" +
			"fastbrowser schema > scenario.schema.json. `fastbrowser validate` stays the authority:\n" +
			"it also refuses what a schema cannot express (duplicate ids, forward references, …).\n" +
			"With --protocol it prints the schema of every protocol v1 frame, request and result\n" +
			"(docs/protocol.md; the same as docs/protocol.schema.json).\n" +
			"With --init it writes the scenario schema to PATH (default ./" + SchemaInitName + ", 0644:\n" +
			"it is meant to be committed) and prints the \"$schema\" line to add to each file.",
		ArgsUsage: "[--init [--force] [PATH]]",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "protocol",
			Usage: "print the protocol v1 schema (frames, and each operation's request and result) instead"},
			&cli.BoolFlag{Name: "init", Usage: "write the scenario schema to PATH (default ./" + SchemaInitName + ") instead of printing it"},
			&cli.BoolFlag{Name: "force", Usage: "with --init: replace an existing PATH that differs"}},
		Action: func(c *cli.Context) error {
			if c.Bool("init") {
				if c.Bool("protocol") || c.NArg() > 1 {
					return usageError("schema --init takes at most one PATH and no --protocol")
				}
				return schemaInit(st, c.Args().First(), c.Bool("force"))
			}
			if c.Bool("force") {
				return usageError("--force goes with --init")
			}
			if c.NArg() > 0 {
				return usageError("schema takes no arguments")
			}
			out := scenario.SchemaJSON
			if c.Bool("protocol") {
				var err error
				if out, err = transport.ProtocolSchema(); err != nil {
					return err
				}
			}
			_, err := st.stdout.Write(out)
			return err
		},
	}
}
