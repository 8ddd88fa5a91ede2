package main

import (
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// configFlag is --config on run, validate and replay.
func configFlag() cli.Flag {
	return &cli.StringFlag{Name: "config", Usage: "run config `FILE` of defaults (default: " + scenario.ConfigName +
		" found from the first FILE's directory or the first DIR, or a parent, up to the repository root)"}
}

// runConfig loads --config FILE, else the fastbrowser.json found upward from where the
// first FILE|DIR argument is: a DIR itself, a FILE's directory (nil: none). Starting at a
// DIR, not at the first scenario file found below it, keeps a subdirectory's own config
// from deciding for the whole run. A config it cannot load is invalid input (exit 2).
func runConfig(c *cli.Context, first string) (*scenario.RunConfig, error) {
	path := c.String("config")
	if path == "" && first != "" {
		from := first
		if info, err := os.Stat(first); err != nil || !info.IsDir() {
			from = filepath.Dir(first)
		}
		path = scenario.FindConfig(from)
	}
	if path == "" {
		return nil, nil
	}
	return scenario.LoadConfig(path)
}

// configPath is what the run header and --json say about the config used ("" for none).
func configPath(cfg *scenario.RunConfig) string {
	if cfg == nil {
		return ""
	}
	return cfg.Path
}
