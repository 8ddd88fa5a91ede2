package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// SchemaInitName is the file `schema --init` writes when given no PATH. A directory given to
// run or validate skips files ending in .schema.json, so the schema can sit with the suite.
const SchemaInitName = "scenario.schema.json"

// schemaInitMode is 0644, not the 0600 of what a run writes: the schema is a source file
// meant to be committed next to the scenarios and read by editors and CI as any other. It
// holds nothing of a run and no secret.
const schemaInitMode = 0o644

// schemaInit writes the scenario schema to path ("" is SchemaInitName in the working
// directory) and prints the "$schema" line to paste into each scenario file beside it. It
// never rewrites a user's file: an existing file with other bytes is refused without force;
// one with the same bytes is left as it is. The write is a rename of a complete temporary
// file, so a reader never sees half a schema.
func schemaInit(st *state, path string, force bool) error {
	if path == "" {
		path = SchemaInitName
	}
	switch old, err := os.ReadFile(path); {
	case err == nil && bytes.Equal(old, scenario.SchemaJSON):
		fmt.Fprintf(st.stdout, "%s is already this build's scenario schema\n", path)
		printSchemaLine(st, path)
		return nil
	case err == nil && !force:
		return usageError("%s exists and differs from this build's scenario schema: give --force to replace it", path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return usageError("%s: %v", path, errors.Unwrap(err))
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".schema-*.tmp")
	if err != nil {
		return usageError("cannot write in %s: %v", dir, errors.Unwrap(err))
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if _, err := tmp.Write(scenario.SchemaJSON); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(schemaInitMode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	fmt.Fprintf(st.stdout, "wrote %s (the scenario file v1 schema; commit it with your scenarios)\n", path)
	printSchemaLine(st, path)
	return nil
}

func printSchemaLine(st *state, path string) {
	fmt.Fprintf(st.stdout, "add this line to each scenario file in %s (editors then check and complete it):\n  \"$schema\": \"./%s\",\n",
		filepath.Dir(path), filepath.Base(path))
}
