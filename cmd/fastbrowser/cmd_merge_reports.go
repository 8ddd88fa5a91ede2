package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/junit"
	"github.com/fastbrowser/fastbrowser/scenario/shardmerge"
)

func mergeReportsCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "merge-reports",
		Usage:     "merge the results directories of a sharded run (run --shard i/n) into one report.json, junit.xml, report.html and artifacts/ (exit as run: 0 passed, 1 failed or error, 130 interrupted; 2 shards that do not make one suite, or evidence that is not what its report records)",
		UsageText: "fastbrowser merge-reports --out DIR [--artifacts-mode private|group] [--json] SHARD_DIR...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "the merged results `DIR`: one that does not exist yet (or is empty); it appears whole or not at all"},
			&cli.BoolFlag{Name: "json", Usage: "print only the merged run's summary as JSON on stdout (run --json's)"},
			artifactsModeFlag(),
		},
		Action: func(c *cli.Context) error {
			mode, err := artifactsMode(c)
			if err != nil {
				return err
			}
			out := c.String("out")
			if out == "" {
				return usageError("give --out DIR for the merged report")
			}
			dirs := c.Args().Slice()
			if len(dirs) == 0 {
				return usageError("give the results directory of every shard (run --shard i/n --out DIR)")
			}
			if err := checkMergeOut(out, dirs); err != nil {
				return err
			}
			shards := make([]shardmerge.Shard, 0, len(dirs))
			for _, d := range dirs {
				rep, err := loadReportFile(filepath.Join(d, "report.json"))
				if err != nil {
					return err
				}
				shards = append(shards, shardmerge.Shard{Dir: d, Report: rep})
			}
			if shards, err = shardmerge.Check(shards); err != nil {
				return usageError("%v", err)
			}
			rep, err := writeMerged(c, shards, out, mode)
			if err != nil {
				return err
			}
			reportPath := filepath.Join(out, "report.json")
			if c.Bool("json") {
				_ = json.NewEncoder(st.stdout).Encode(newRunSummary(rep, reportPath))
			} else {
				fmt.Fprintf(st.stdout, "merged %d shards: %s\nreport: %s\nhtml:   %s\n", len(shards), summaryCounts(rep), reportPath, filepath.Join(out, "report.html"))
			}
			return exitForStatus(rep.Status)
		},
	}
}

// checkMergeOut refuses an --out that is one of the shard directories, or that exists and
// is anything but an empty real directory (the merged output replaces it whole).
func checkMergeOut(out string, dirs []string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return usageError("--out %s: cannot resolve the path", out)
	}
	fi, statErr := os.Lstat(out)
	for _, d := range dirs {
		da, err := filepath.Abs(d)
		same := err == nil && da == abs
		if di, err := os.Stat(d); statErr == nil && err == nil && os.SameFile(fi, di) {
			same = true
		}
		if same {
			return usageError("--out %s is one of the shard directories; give a new directory for the merged report", out)
		}
	}
	switch {
	case errors.Is(statErr, os.ErrNotExist):
		return nil
	case statErr != nil:
		return usageError("--out %s: cannot be used: %v", out, errors.Unwrap(statErr))
	case fi.Mode()&os.ModeSymlink != 0:
		return usageError("--out %s is a symlink; give the real directory (a symlink is never followed)", out)
	case !fi.IsDir():
		return usageError("--out %s exists and is not a directory", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil || len(entries) > 0 {
		return usageError("--out %s exists and is not empty; give a new directory (merge-reports writes it whole or not at all)", out)
	}
	return nil
}

// writeMerged merges the shards into a staging directory beside out (artifacts copied and
// checked, then report.json, junit.xml and report.html) and renames it to out only when all
// of it is written: on any failure or Ctrl-C nothing is left behind.
func writeMerged(c *cli.Context, shards []shardmerge.Shard, out string, mode artifacts.Mode) (*scenario.Report, error) {
	parent := filepath.Dir(filepath.Clean(out))
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(filepath.Clean(out))+".merging-*")
	if err != nil {
		return nil, usageError("--out %s: cannot create a directory in %s", out, parent)
	}
	done := false
	defer func() {
		if !done {
			_ = os.RemoveAll(stage)
		}
	}()
	if err := os.Chmod(stage, mode.Dir()); err != nil {
		return nil, exitWith(exitFailed, "cannot write %s", out)
	}
	if err := prepareOutDir(stage, mode); err != nil {
		return nil, err
	}
	rep, err := shardmerge.Merge(c.Context, shards, filepath.Join(stage, "artifacts"), mode)
	var refusal *shardmerge.Refusal
	switch {
	case errors.As(err, &refusal):
		return nil, usageError("%v", err)
	case c.Context.Err() != nil:
		return nil, exitWith(exitInterrupted, "interrupted; nothing written to %s", out)
	case err != nil:
		return nil, exitWith(exitFailed, "%v; nothing written to %s", err, out)
	}
	if err := rep.WriteFileScrubbed(filepath.Join(stage, "report.json"), nil, mode); err != nil {
		return nil, exitWith(exitFailed, "cannot write %s", filepath.Join(out, "report.json"))
	}
	if err := junit.WriteFile(filepath.Join(stage, "junit.xml"), rep, nil, mode); err != nil {
		return nil, exitWith(exitFailed, "cannot write %s", filepath.Join(out, "junit.xml"))
	}
	if err := writeHTMLReport(stage, rep, nil, mode); err != nil {
		return nil, exitWith(exitFailed, "cannot write %s", filepath.Join(out, "report.html"))
	}
	// Over a missing or empty directory (checkMergeOut): rename(2) replaces an empty one.
	if err := os.Rename(stage, out); err != nil {
		return nil, exitWith(exitFailed, "cannot move the merged report into %s (it must not exist or be empty)", out)
	}
	done = true
	return rep, nil
}
