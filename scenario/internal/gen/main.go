// Command gen writes what is derived from the Go request and result types and the operation
// table (transport/operations.go), so none of it is kept by hand:
//
//   - docs/protocol.schema.json: transport.ProtocolSchema();
//   - scenario/schema.json: scenario/schema.skeleton.json with the request shapes of the
//     operations scenario files may use (scenarioschema.go);
//   - the operation tables of docs/protocol.md and docs/scenarios.md, between their
//     "generated" markers, and docs/protocol.md's list of captureEvidence's operations
//     (doctables.go).
//
// Run it with `go generate ./...` (scenario/doc.go names it). It lives under scenario because
// it reads both packages and scenario imports transport; TestGeneratedFilesAreCurrent fails
// while any output differs from what it would write.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// output is one generated file: its path from the module root, and how to make it from the
// files it reads (by the same paths).
type output struct {
	path string
	make func(read func(path string) ([]byte, error)) ([]byte, error)
}

var outputs = []output{
	{"docs/protocol.schema.json", func(func(string) ([]byte, error)) ([]byte, error) { return protocolSchema() }},
	{schemaPath, func(read func(string) ([]byte, error)) ([]byte, error) {
		skeleton, err := read(skeletonPath)
		if err != nil {
			return nil, err
		}
		return scenarioSchema(skeleton)
	}},
	{protocolDocPath, protocolDoc},
	{scenariosDocPath, scenariosDoc},
}

// generate makes every output from the files under root.
func generate(root string) (map[string][]byte, error) {
	read := func(path string) ([]byte, error) { return os.ReadFile(filepath.Join(root, path)) }
	out := map[string][]byte{}
	for _, o := range outputs {
		data, err := o.make(read)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.path, err)
		}
		out[o.path] = data
	}
	return out, nil
}

// moduleRoot is the nearest directory up from the working directory holding go.mod (go
// generate runs the command in scenario/).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	files, err := generate(root)
	if err != nil {
		return err
	}
	for _, o := range outputs {
		path := filepath.Join(root, o.path)
		old, err := os.ReadFile(path)
		if err == nil && bytes.Equal(old, files[o.path]) {
			continue
		}
		if err := os.WriteFile(path, files[o.path], 0o644); err != nil {
			return err
		}
		fmt.Println("gen: wrote", o.path)
	}
	return nil
}
