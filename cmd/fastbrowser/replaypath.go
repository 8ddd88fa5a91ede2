package main

import (
	"os"
	"path/filepath"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// replayFile is where the scenario file a report names is now, so replay works from any
// directory: a path recorded absolute as it is; a relative one joined to the directory the
// run started in (report.json's cwd) when a file is there; else as given, against the
// current directory (a report from before cwd was recorded, or a checkout moved since the
// run). Fragments and uploads then resolve against the file's directory, and the run config
// is found from it, as in the run.
func replayFile(rep *scenario.Report, file string) string {
	if filepath.IsAbs(file) || rep.Cwd == "" || !filepath.IsAbs(rep.Cwd) {
		return file
	}
	if p := filepath.Join(rep.Cwd, file); regularFile(p) || !regularFile(file) {
		return p
	}
	return file
}

func regularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
