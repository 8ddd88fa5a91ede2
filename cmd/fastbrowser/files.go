package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// expandArgs turns FILE|DIR arguments into scenario files: a directory contributes every
// *.json below it, sorted, so runs are deterministic, except run config files
// (fastbrowser.json), schemas (*.schema.json) and fragment files, which scenarios include.
func expandArgs(args []string) ([]string, error) {
	if len(args) == 0 {
		return nil, usageError("give at least one scenario FILE or DIR")
	}
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, usageError("%s: no such file or directory", a)
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".json") && !notScenario(p) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, usageError("%s: cannot list the directory", a)
		}
		if len(found) == 0 {
			return nil, usageError("%s: no *.json scenario files", a)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// notScenario says whether a *.json file found in a directory is a run config, a JSON
// Schema (*.schema.json, such as the one `schema --init` writes) or a fragment rather than a
// scenario.
func notScenario(p string) bool {
	if base := filepath.Base(p); base == scenario.ConfigName || strings.HasSuffix(base, ".schema.json") {
		return true
	}
	return scenario.IsFragmentFile(p)
}
