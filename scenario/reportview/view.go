package reportview

import (
	"fmt"
	"strings"
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
	Description string
	SkipReason  string
	File        string
	SHA256      string
	Status      string
	Duration    string
	Enforcement []string
	Model       string // provider:model, "" without one
	Events      []scenario.Event
	Error       *errorView
	Ops         []opView
	Attempts    []attemptView // when the scenario ran more than once (run --retries)
	Open        bool          // failed and flaky scenarios start expanded, passed ones collapsed
	Logs        []logView     // hook and server output of a scenario that did not pass
	Trace       *traceView    // the last attempt's step trace, when one was kept
}

// logView is the end of one hook's or server's log (already scrubbed when it was stored).
type logView struct {
	Source, Path, Text string
	Cut                bool // only the end is shown
}

// attemptView is one attempt of a retried scenario: its outcome, and the operation that
// failed (with its error and evidence) or the scenario error.
type attemptView struct {
	Attempt  int
	Status   string
	Duration string
	Events   []scenario.Event
	Op       *opView
	Error    *errorView
	Trace    *traceView // the attempt's step trace, when one was kept (not the last attempt's: the scenario shows that)
}

type opView struct {
	Index  int
	ID     string
	Op     string
	Target string
	Value  string
	HTTP   int // a navigate's or reload's document status
	Status string
	// SkipReason says why an operation that was reached was skipped (its when did not hold).
	SkipReason string
	// Healed says an act in words ran by its words, not its recording (OperationReport.HealedText).
	Healed   string
	Duration string
	Posture  string
	Blocked  []transport.Blocked
	Dialogs  []transport.Dialog
	Error    *errorView
	Evidence *evidenceView
	// Failure is a failed operation's expected/received, call log and code frame
	// (scenario.Failure), shown under its error.
	Failure *failureView
	Soft    bool // a soft assertion ("soft": true)
	// TurnSummary and Turns are a task's or extract's turn receipts (content-free); Actions
	// a task's accounting, the actions it dispatched (never what a type typed).
	TurnSummary string
	Turns       []transport.TurnReceipt
	Actions     []transport.TaskAction
}

// failureView is scenario.Failure as the page shows it: the Expected, Received and caret
// lines together (they line up in a <pre>), the call log as a list, the location and the
// code frame.
type failureView struct {
	Values    string
	CallLog   []string
	Location  string
	CodeFrame string
}

func failureOf(op *scenario.OperationReport) *failureView {
	f := scenario.FailureOf(op)
	if f == nil {
		return nil
	}
	fv := &failureView{Values: strings.Join(f.ValueLines(), "\n"), CallLog: f.CallLog, Location: f.Location, CodeFrame: f.CodeFrame}
	if fv.Values == "" && fv.CallLog == nil && fv.Location == "" && fv.CodeFrame == "" {
		return nil
	}
	return fv
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

// buildPage is the page's view of rep; artifactsDir is where the evidence files are read,
// imgBase the same directory as the page reaches it (a relative URL path).
func buildPage(rep *scenario.Report, artifactsDir, imgBase string) pageView {
	c := rep.Count()
	pv := pageView{Run: runView{
		RunID: rep.RunID, Status: rep.Status, Duration: formatMs(rep.DurationMs),
		Browser: rep.Browser.Version, Attached: rep.Browser.Attached,
		Counts: c, Total: len(rep.Scenarios), ReportVer: rep.Version,
	}}
	if !rep.StartedAt.IsZero() {
		pv.Run.Started = rep.StartedAt.UTC().Format(time.RFC3339)
	}
	for si, s := range rep.Scenarios {
		sv := scenarioView{
			ID: s.Title(), Description: s.Description, SkipReason: s.SkipReason, File: s.File, SHA256: s.SHA256, Status: s.Status, Duration: formatMs(s.DurationMs),
			Enforcement: s.Enforcement, Events: s.Events, Error: errorOf(s.Error),
			Open: s.Status != scenario.StatusPassed && s.Status != scenario.StatusSkipped,
		}
		if m := s.Model; m != nil {
			sv.Model = m.Provider + ":" + m.Model
		}
		for _, op := range s.Operations {
			sv.Ops = append(sv.Ops, opViewOf(op, artifactsDir))
		}
		if ShowsLogs(s.Status) {
			for _, l := range ReadLogs(artifactsDir, s.Diagnostics) {
				text, cut := tailBytes(l.Text, htmlLogBytes)
				sv.Logs = append(sv.Logs, logView{Source: l.Source, Path: "artifacts/" + l.Meta.Path, Text: text, Cut: cut})
			}
		}
		sv.Trace = traceOf(fmt.Sprintf("t%d", si), s.Trace, artifactsDir, imgBase)
		for k, a := range s.Attempts {
			av := attemptView{Attempt: a.Attempt, Status: a.Status, Duration: formatMs(a.DurationMs), Events: a.Events, Error: errorOf(a.Error)}
			if a.Operation != nil {
				ov := opViewOf(*a.Operation, artifactsDir)
				av.Op = &ov
			}
			if k < len(s.Attempts)-1 {
				av.Trace = traceOf(fmt.Sprintf("t%d-a%d", si, a.Attempt), a.Trace, artifactsDir, imgBase)
			}
			sv.Attempts = append(sv.Attempts, av)
		}
		pv.Scenarios = append(pv.Scenarios, sv)
	}
	return pv
}

// opViewOf is one operation's row, its evidence loaded from artifactsDir.
func opViewOf(op scenario.OperationReport, artifactsDir string) opView {
	ov := opView{
		Index: op.Index, ID: op.ID, Op: op.Op, Target: op.Target, Value: op.Value, HTTP: op.HTTPStatus,
		Status: op.Status, SkipReason: op.SkipReason, Healed: op.HealedText(), Duration: formatMs(op.DurationMs), Soft: op.Soft,
		Posture: string(op.Posture), Blocked: op.Blocked, Dialogs: op.Dialogs, Error: errorOf(op.Error),
	}
	ov.Failure = failureOf(&op)
	ov.TurnSummary, ov.Turns, ov.Actions = op.TurnSummary(), op.Turns(), op.Actions()
	if len(op.Evidence) > 0 || len(op.EvidenceUnavailable) > 0 {
		ov.Evidence = loadEvidence(artifactsDir, op.Evidence, op.EvidenceUnavailable)
	}
	return ov
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
