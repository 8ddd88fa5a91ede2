package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// configFlag is --config on run, validate and replay.
func configFlag() cli.Flag {
	return &cli.StringFlag{Name: "config", Usage: "run config `FILE` of defaults (default: " + scenario.ConfigName +
		" found in the first scenario file's directory or a parent, up to the repository root)"}
}

// runConfig loads --config FILE, else the fastbrowser.json found upward from the first
// scenario file's directory (nil: none). A config it cannot load is invalid input (exit 2).
func runConfig(c *cli.Context, first string) (*scenario.RunConfig, error) {
	path := c.String("config")
	if path == "" && first != "" {
		path = scenario.FindConfig(filepath.Dir(first))
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
