package scenario

import (
	"context"
	"strconv"
)

// runAttempts runs l once and, when that attempt failed or errored, again from the start —
// hooks, managed server, a fresh browser session — up to retries more times, stopping at the
// first pass (`run --retries`). It never retries one operation, nor a scenario that was
// interrupted or whose run was cancelled. attempt runs attempt k (1 is the first).
//
// One attempt gives its report as it is. More give the last attempt's report, with status
// flaky when it passed, the duration (and session time opened ahead) of all attempts, and
// every attempt listed in Attempts.
func runAttempts(ctx context.Context, retries int, attempt func(k int) ScenarioReport) ScenarioReport {
	var attempts []Attempt
	var total, ahead int64
	for k := 1; ; k++ {
		sr := attempt(k)
		total += sr.DurationMs
		ahead += sr.SessionOpenedAheadMs
		last := k > retries || !retryable(sr.Status) || ctx.Err() != nil
		if k == 1 && last {
			return sr
		}
		attempts = append(attempts, attemptOf(k, &sr))
		if last {
			sr.Attempts, sr.DurationMs, sr.SessionOpenedAheadMs = attempts, total, ahead
			if sr.Status == StatusPassed {
				sr.Status = StatusFlaky
			}
			return sr
		}
	}
}

// retryable: only a scenario that failed or errored runs again; an interrupted one was
// stopped on purpose.
func retryable(status string) bool { return status == StatusFailed || status == StatusError }

// attemptOf keeps what one attempt's report says about its outcome.
func attemptOf(k int, sr *ScenarioReport) Attempt {
	a := Attempt{Attempt: k, Status: sr.Status, DurationMs: sr.DurationMs, SessionOpenedAheadMs: sr.SessionOpenedAheadMs, Events: sr.Events, Error: sr.Error, Diagnostics: sr.Diagnostics, Trace: sr.Trace}
	for i := range sr.Operations {
		if sr.Operations[i].Status == StatusFailed {
			op := sr.Operations[i]
			a.Operation = &op
			break
		}
	}
	return a
}

// title is l's name in messages: "project › id" under a project (ScenarioReport.Title).
func (l *Loaded) title() string {
	if l.Project == "" {
		return l.ID
	}
	return l.Project + " › " + l.ID
}

// runID is the run directory name of l's artifacts: the run's id, and under a project
// "<runId>.<project>", so one scenario's evidence in two projects never shares a directory
// (the store's directory is the scenario id either way).
func (l *Loaded) runID(run string) string {
	if l.Project == "" {
		return run
	}
	return run + "." + l.Project
}

// AttemptRunDir is the run-id directory an attempt's artifacts go to in the scenario's store:
// the run id for the first attempt (a run without retries looks as it always did), and
// "<runId>.attempt-K" for attempt K of a retry, so no attempt's evidence or logs mix with
// another's.
func AttemptRunDir(runID string, k int) string {
	if k <= 1 {
		return runID
	}
	return runID + ".attempt-" + strconv.Itoa(k)
}
