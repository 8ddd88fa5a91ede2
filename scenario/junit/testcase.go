package junit

import (
	"fmt"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// testCaseOf maps one scenario. Statuses other than passed, failed and skipped are errors,
// as in Report.Count, so the JUnit totals match what `run --json` prints.
func testCaseOf(s *scenario.ScenarioReport) testCase {
	tc := testCase{
		Name:      xmlText(s.Title()),
		Classname: xmlText(projectClass(s.Project) + classname(s.File)),
		Time:      seconds(s.DurationMs),
		File:      xmlText(caseFile(s.File)),
		SystemOut: textBlock(xmlText(systemOut(s))),
	}
	switch s.Status {
	case scenario.StatusPassed:
	case scenario.StatusFlaky:
		// A pass on a retry: Surefire's passed testcase with one flaky element per failed
		// attempt.
		tc.FlakyFailures, tc.FlakyErrors = reruns(s)
	case scenario.StatusSkipped:
		tc.Skipped = &skipped{Message: xmlText(s.SkipReason)}
		if s.Error != nil {
			tc.Skipped.Message = xmlText(headline(s.Error))
		}
	case scenario.StatusFailed:
		// A failure is an operation's verdict; the scenario error is the fallback for a
		// report that recorded the failure only there (ScenarioReport.Cause).
		tc.Failure = problemOf(s)
		tc.RerunFailures, tc.RerunErrors = reruns(s)
	default:
		// An error or interruption is the scenario's; the failing operation's error says
		// more only when the scenario recorded none (ScenarioReport.Cause).
		tc.Error = problemOf(s)
		tc.RerunFailures, tc.RerunErrors = reruns(s)
	}
	return tc
}

// reruns maps the attempts before the last (the last is the testcase's own result) to
// Surefire rerun or flaky elements, split by the attempt's status: failures, then errors.
func reruns(s *scenario.ScenarioReport) (failures, errs []rerun) {
	for i := 0; i+1 < len(s.Attempts); i++ {
		a := &s.Attempts[i]
		// The attempt as a report of its own: its lifecycle, its failed operation, its error.
		as := &scenario.ScenarioReport{ID: s.ID, Project: s.Project, Status: a.Status, Events: a.Events, Error: a.Error}
		if a.Operation != nil {
			as.Operations = []scenario.OperationReport{*a.Operation}
		}
		p := problemOf(as)
		r := rerun{Message: xmlText(fmt.Sprintf("attempt %d: %s", a.Attempt, p.Message)), Type: p.Type, StackTrace: p.Body,
			SystemOut: textBlock(xmlText(systemOut(as)))}
		if a.Status == scenario.StatusFailed {
			failures = append(failures, r)
		} else {
			errs = append(errs, r)
		}
	}
	return failures, errs
}

// problemOf builds <failure>/<error> from the scenario's cause (ScenarioReport.Cause),
// falling back to the bare status when the report recorded no error at all.
func problemOf(s *scenario.ScenarioReport) *problem {
	_, e := s.Cause()
	p := &problem{Message: s.Status, Type: s.Status, Body: textBlock(xmlText(detail(s)))}
	if e != nil {
		p.Message, p.Type = headline(e), string(e.Code)
	}
	p.Message, p.Type = xmlText(p.Message), xmlText(p.Type)
	if p.Type == "" {
		p.Type = xmlText(s.Status)
	}
	return p
}

// headline is "CODE: message", the form every reporter shows as the one-line reason. The
// message is the runtime's own (already safe for reports); it is still stripped for XML.
func headline(e *transport.OperationError) string {
	if e.Message == "" {
		return string(e.Code)
	}
	return string(e.Code) + ": " + e.Message
}
