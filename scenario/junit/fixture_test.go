package junit

import (
	"encoding/json"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

const (
	fileA = "scenarios/quickstart/home.json"
	fileB = "scenarios/admin.json"
	// resultMarker sits in an operation result; it must never reach the JUnit file.
	resultMarker = "RESULT-PAYLOAD-MARKER"
)

// fourScenarios is a run over two files whose scenarios interleave (A, B, A, B), so grouping
// by first appearance is tested, with one scenario of each non-passing kind.
func fourScenarios() *scenario.Report {
	start := time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	return &scenario.Report{
		Version: scenario.ReportVersion, RunID: "20250304T040607Z-abcd", Status: scenario.StatusError,
		StartedAt: start, DurationMs: 2500,
		Browser: scenario.BrowserInfo{Version: "Chrome/131.0"},
		Scenarios: []scenario.ScenarioReport{
			{
				ID: "home", File: fileA, SHA256: "aaaa", Status: scenario.StatusPassed, DurationMs: 120,
				Enforcement: []string{"browser"},
				Events:      []scenario.Event{{AtMs: 0, Kind: "runtime", Name: "open", Status: "passed"}},
				Operations: []scenario.OperationReport{{Index: 0, ID: "open-home", Op: "navigate", Status: scenario.StatusPassed, DurationMs: 80,
					Result: json.RawMessage(`{"title":"` + resultMarker + `"}`)}},
			},
			{
				ID: "admin-setup", File: fileB, SHA256: "bbbb", Status: scenario.StatusError, DurationMs: 75,
				Enforcement: []string{"browser", "proxy"},
				Events:      []scenario.Event{{AtMs: 3, Kind: "hook", Name: "setup", Status: "error"}},
				Error: &transport.OperationError{Operation: "hook", Phase: transport.PhaseExecute, Code: "hook_failed",
					Message: "setup exited 1", Retry: transport.RetryNever, MutationState: "unknown"},
			},
			loginFailed(),
			{ID: "admin-skip", File: fileB, SHA256: "bbbb", Status: scenario.StatusSkipped, Enforcement: []string{"browser", "proxy"}},
		},
	}
}

// loginFailed failed at its second operation, with blocked requests, a dialog and evidence.
func loginFailed() scenario.ScenarioReport {
	return scenario.ScenarioReport{
		ID: "login", File: fileA, SHA256: "aaaa", Status: scenario.StatusFailed, DurationMs: 340,
		Enforcement: []string{"browser"},
		Events: []scenario.Event{
			{AtMs: 0, Kind: "hook", Name: "setup", Status: "passed"},
			{AtMs: 12, Kind: "server", Name: "ready", Status: "passed"},
		},
		Operations: []scenario.OperationReport{
			{Index: 0, Op: "navigate", Status: scenario.StatusPassed, DurationMs: 30, Result: json.RawMessage(`"` + resultMarker + `"`)},
			{
				Index: 1, ID: "wrong-title", Op: "assert", Value: `title "Dashboard"`, Status: scenario.StatusFailed, DurationMs: 9, Posture: transport.PostureFailed,
				Blocked: []transport.Blocked{{Kind: "script", Origin: "https://tracker.example"}},
				Dialogs: []transport.Dialog{{Type: "confirm", Message: "Leave <now>?", Action: transport.DialogDismissed}},
				Error: &transport.OperationError{Operation: "assert", Phase: transport.PhaseVerify, Code: "assertion_failed",
					Message: `title did not equal "Dashboard" on one read (title is "Sign in")`,
					Retry:   transport.RetrySafe, MutationState: "not_attempted"},
				Evidence: []artifacts.Meta{{ID: "s1", Owner: "login", Kind: "screenshot", Path: "login/20250304T040607Z-abcd/1-screenshot.png",
					Bytes: 10, ContentType: "image/png", SHA256: "cc", LocalOnly: true}},
				EvidenceUnavailable: []transport.UnavailablePart{{Part: "outline", Code: "redaction_not_proven", Message: "password field visible"}},
			},
			{Index: 2, Op: "click", Status: scenario.StatusSkipped},
		},
	}
}
