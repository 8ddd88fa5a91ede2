package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/reportview"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// maxReportBytes bounds what `report` reads: a report is metadata (evidence bytes live in
// artifacts/), so anything this large is not one fastbrowser wrote.
const maxReportBytes = budgets.ReportBytes

func reportCommand(st *state) *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "summarise a report.json on the terminal; with --html also write a self-contained HTML page (exit 0 shown, 2 unreadable report)",
		UsageText: "fastbrowser report REPORT.json [--html FILE]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "html", Usage: "write a self-contained, offline HTML report to `FILE` (0600), embedding the evidence in the report's artifacts directory"},
		},
		Action: func(c *cli.Context) error {
			reportPath, htmlPath, err := reportArgs(c)
			if err != nil {
				return err
			}
			rep, err := loadReportFile(reportPath)
			if err != nil {
				return err
			}
			// Paths are printed joined to the report's directory, so they open from here.
			artifactsDir := filepath.Join(filepath.Dir(reportPath), "artifacts")
			reportview.Text(st.stdout, rep, artifactsDir)
			if htmlPath == "" {
				return nil
			}
			if err := reportview.WriteHTMLFile(htmlPath, rep, artifactsDir, nil, artifacts.ModePrivate); err != nil {
				return usageError("--html %s: cannot write the file", htmlPath)
			}
			fmt.Fprintf(st.stdout, "html: %s\n", htmlPath)
			return nil
		},
	}
}

// reportArgs takes REPORT.json and --html (which may follow it: see interspersed).
func reportArgs(c *cli.Context) (report, html string, err error) {
	if c.NArg() != 1 {
		return "", "", usageError("give one REPORT.json (and optionally --html FILE)")
	}
	return c.Args().First(), c.String("html"), nil
}

// loadReportFile reads a report v1 strictly enough to render it: valid JSON, version 1
// exactly (a newer report may mean fields this build would misread), and a run id and status.
// Unknown fields are allowed: report v1 only ever adds fields.
func loadReportFile(path string) (*scenario.Report, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usageError("%s: no such report file", path)
	}
	if err != nil {
		return nil, usageError("%s: cannot open the report", path)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, usageError("%s: not a report file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxReportBytes+1))
	if err != nil {
		return nil, usageError("%s: cannot read the report", path)
	}
	if len(data) > maxReportBytes {
		return nil, usageError("%s: larger than %d MiB; not a fastbrowser report", path, maxReportBytes>>20)
	}
	// Version first, so a future report is refused by name, not by a confusing type error.
	var probe struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, usageError("%s: not valid report JSON: %v", path, err)
	}
	if probe.Version == nil {
		return nil, usageError("%s: no \"version\": not a fastbrowser report", path)
	}
	if *probe.Version != scenario.ReportVersion {
		return nil, usageError("%s: report version %d is not supported (this fastbrowser reads version %d)", path, *probe.Version, scenario.ReportVersion)
	}
	var rep scenario.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, usageError("%s: not a valid report v1: %v", path, err)
	}
	if rep.RunID == "" || rep.Status == "" {
		return nil, usageError("%s: no runId or status: not a fastbrowser report", path)
	}
	return &rep, nil
}

// writeHTMLReport writes outDir/report.html for a run whose evidence is in outDir/artifacts;
// `run` calls it next to report.json, with its secret scrubber and --artifacts-mode.
func writeHTMLReport(outDir string, rep *scenario.Report, scrub *secrets.Set, mode artifacts.Mode) error {
	return reportview.WriteHTMLFile(filepath.Join(outDir, "report.html"), rep, filepath.Join(outDir, "artifacts"), scrub, mode)
}
