package reportview

import (
	"time"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The view model: the report flattened into what the template shows, with every value
// already formatted, so the template holds layout only and no logic that could misread data.

type pageView struct {
	Run       runView
	Scenarios []scenarioView
}

type runView struct {
	RunID     string
	Status    string
	Started   string
	Duration  string
	Browser   string
	Attached  bool
	Counts    scenario.Counts
	Total     int
	ReportVer int
}

type scenarioView struct {
	ID          string
	File        string
	SHA256      string
	Status      string
	Duration    string
	Enforcement []string
	Events      []scenario.Event
	Error       *errorView
	Ops         []opView
	Open        bool // failed scenarios start expanded, passed ones collapsed
}

type opView struct {
	Index    int
	ID       string
	Op       string
	Status   string
	Duration string
	Posture  string
	Blocked  []transport.Blocked
	Dialogs  []transport.Dialog
	Error    *errorView
	Evidence *evidenceView
}

type errorView struct {
	Operation     string
	Phase         string
	Code          string
	Message       string
	Path          string
	Retry         string
	MutationState string
	Blocked       []transport.Blocked
}

func buildPage(rep *scenario.Report, artifactsDir string) pageView {
	c := rep.Count()
	pv := pageView{Run: runView{
		RunID: rep.RunID, Status: rep.Status, Duration: formatMs(rep.DurationMs),
		Browser: rep.Browser.Version, Attached: rep.Browser.Attached,
		Counts: c, Total: len(rep.Scenarios), ReportVer: rep.Version,
	}}
	if !rep.StartedAt.IsZero() {
		pv.Run.Started = rep.StartedAt.UTC().Format(time.RFC3339)
	}
	for _, s := range rep.Scenarios {
		sv := scenarioView{
			ID: s.ID, File: s.File, SHA256: s.SHA256, Status: s.Status, Duration: formatMs(s.DurationMs),
			Enforcement: s.Enforcement, Events: s.Events, Error: errorOf(s.Error),
			Open: s.Status != scenario.StatusPassed && s.Status != scenario.StatusSkipped,
		}
		for _, op := range s.Operations {
			ov := opView{
				Index: op.Index, ID: op.ID, Op: op.Op, Status: op.Status, Duration: formatMs(op.DurationMs),
				Posture: string(op.Posture), Blocked: op.Blocked, Dialogs: op.Dialogs, Error: errorOf(op.Error),
			}
			if len(op.Evidence) > 0 || len(op.EvidenceUnavailable) > 0 {
				ov.Evidence = loadEvidence(artifactsDir, op.Evidence, op.EvidenceUnavailable)
			}
			sv.Ops = append(sv.Ops, ov)
		}
		pv.Scenarios = append(pv.Scenarios, sv)
	}
	return pv
}

func errorOf(e *transport.OperationError) *errorView {
	if e == nil {
		return nil
	}
	return &errorView{
		Operation: e.Operation, Phase: string(e.Phase), Code: string(e.Code), Message: e.Message,
		Path: e.Path, Retry: string(e.Retry), MutationState: string(e.MutationState), Blocked: e.Blocked,
	}
}
