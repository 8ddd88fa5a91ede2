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
// *.json below it, sorted, so runs are deterministic.
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
			if !d.IsDir() && strings.HasSuffix(p, ".json") {
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

// loadAll parses every file; it returns the valid ones and one error per invalid one.
func loadAll(files []string, over scenario.Overrides) ([]*scenario.Loaded, []error) {
	var loaded []*scenario.Loaded
	var errs []error
	seen := map[string]string{}
	for _, f := range files {
		l, err := scenario.LoadWith(f, over)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[l.ID]; dup {
			errs = append(errs, &scenario.ValidationError{File: f, Path: "id", Message: "id " + l.ID + " is also used by " + prev})
			continue
		}
		seen[l.ID] = f
		loaded = append(loaded, l)
	}
	return loaded, errs
}
