package main

import (
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// runSummary is `run --json`'s one object: the counts, and which scenarios did not pass by
// id with the error that ended each, so a CI step can act on it without reading report.json.
type runSummary struct {
	Version    int             `json:"version"`
	Status     string          `json:"status"`
	Counts     scenario.Counts `json:"counts"`
	DurationMs int64           `json:"durationMs"`
	Report     string          `json:"report"`
	Config     string          `json:"config,omitempty"` // the run config file used
	// Healed counts the acts in words that ran by their words instead of their recording
	// (they passed); Updated lists the files --update wrote their new recordings into.
	Healed  int      `json:"healed,omitempty"`
	Updated []string `json:"updated,omitempty"`
	// Failed, Errored (error or interrupted) and Flaky list scenario ids in run order;
	// always present, empty when none.
	Failed  []string       `json:"failed"`
	Errored []string       `json:"errored"`
	Flaky   []string       `json:"flaky"`
	Errors  []scenarioFail `json:"errors"`
}

// scenarioFail is the error that ended one failed or errored scenario, with the index of
// the operation it is from (absent: the scenario's own).
type scenarioFail struct {
	Scenario  string         `json:"scenario"`
	Status    string         `json:"status"`
	Operation *int           `json:"operation,omitempty"`
	Code      transport.Code `json:"code,omitempty"`
	Message   string         `json:"message,omitempty"`
}

func newRunSummary(rep *scenario.Report, reportPath string) runSummary {
	sum := runSummary{Version: scenario.ReportVersion, Status: rep.Status, Counts: rep.Count(), DurationMs: rep.DurationMs,
		Report: reportPath, Failed: []string{}, Errored: []string{}, Flaky: []string{}, Errors: []scenarioFail{}}
	for i := range rep.Scenarios {
		s := &rep.Scenarios[i]
		switch s.Status {
		case scenario.StatusPassed, scenario.StatusSkipped:
			continue
		case scenario.StatusFlaky:
			sum.Flaky = append(sum.Flaky, s.Title())
			continue
		case scenario.StatusFailed:
			sum.Failed = append(sum.Failed, s.Title())
		default:
			sum.Errored = append(sum.Errored, s.Title())
		}
		// The error junit.xml names too: a failure's operation, an error's own (Cause).
		f := scenarioFail{Scenario: s.Title(), Status: s.Status}
		op, e := s.Cause()
		if op != nil {
			f.Operation = &op.Index
		}
		if e != nil {
			f.Code, f.Message = e.Code, e.Message
		}
		sum.Errors = append(sum.Errors, f)
	}
	return sum
}
