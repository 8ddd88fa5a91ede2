// Package budgets owns every timeout's default, floor and hard ceiling, the fixed waits inside
// them (margins, reserves, poll intervals, the egress proxy's network timeouts: waits.go),
// and every size limit (artifacts and frames here; request fields, bounded copies and files
// read back: sizes.go). Nothing in fastbrowser waits without a budget from here, and a
// request for more than a ceiling is refused (budget_exceeded), never clamped.
package budgets

import (
	"fmt"
	"time"
)

// Budget is one named time limit. Floor is the least an operation is given even when the
// caller asks for less (a floor, not a wait: work still returns as soon as it is done).
type Budget struct {
	Name    string
	Default time.Duration
	Floor   time.Duration
	Ceiling time.Duration
}

// The published budgets (DESIGN.md "Budgets").
var (
	browserStartup     = Budget{Name: "browserStartup", Default: 10 * time.Second, Ceiling: 10 * time.Second}
	workerReady        = Budget{Name: "workerReady", Default: 5 * time.Second, Ceiling: 5 * time.Second}
	request            = Budget{Name: "request", Default: 10 * time.Second, Ceiling: 120 * time.Second}
	actionVerification = Budget{Name: "actionVerification", Default: 3 * time.Second, Ceiling: 3 * time.Second}
	readWait           = Budget{Name: "readWait", Default: 3 * time.Second, Ceiling: 3 * time.Second}
	expect             = Budget{Name: "expect", Default: 5 * time.Second, Ceiling: 120 * time.Second}
	navigation         = Budget{Name: "navigation", Default: 10 * time.Second, Ceiling: 10 * time.Second}
	popupWait          = Budget{Name: "popupWait", Default: 5 * time.Second, Ceiling: 5 * time.Second}
	screenshot         = Budget{Name: "screenshot", Default: 10 * time.Second, Floor: 2 * time.Second, Ceiling: 60 * time.Second}
	observation        = Budget{Name: "observation", Default: 3 * time.Second, Floor: 2 * time.Second, Ceiling: 10 * time.Second}
	failureEvidence    = Budget{Name: "failureEvidence", Default: 2 * time.Second, Ceiling: 2 * time.Second}
	scenarioRun        = Budget{Name: "scenarioRun", Default: 60 * time.Second, Ceiling: 120 * time.Second}

	// Bounds that are not in DESIGN.md's table but that something must still wait for (each
	// accessor below says what it bounds).
	processStopGrace = Budget{Name: "processStopGrace", Default: 2 * time.Second, Ceiling: 10 * time.Second}
	fixtureReadiness = Budget{Name: "fixtureReadiness", Default: 10 * time.Second, Ceiling: 10 * time.Second}
	hook             = Budget{Name: "hook", Default: 30 * time.Second, Ceiling: 120 * time.Second}
	cdpCall          = Budget{Name: "cdpCall", Default: 5 * time.Second, Ceiling: 10 * time.Second}
	download         = Budget{Name: "download", Default: 10 * time.Second, Ceiling: 60 * time.Second}
	wait             = Budget{Name: "wait", Default: 10 * time.Second, Ceiling: 120 * time.Second}
)

// The budgets and limits are unexported values behind accessors, so nothing can change a
// bound at run time.

// BrowserStartup bounds launching Chromium until its DevTools endpoint answers.
func BrowserStartup() Budget { return browserStartup }

// WorkerReady bounds a worker's start until its ready frame.
func WorkerReady() Budget { return workerReady }

// Request bounds one call that has no budget of its own, and a whole act.
func Request() Budget { return request }

// ActionVerification bounds an act's wait for its target to appear and become actionable,
// and then its wait for its effect.
func ActionVerification() Budget { return actionVerification }

// ReadWait bounds read.
func ReadWait() Budget { return readWait }

// Expect bounds a bounded assert's wait: its default is Playwright's expect timeout (5 s),
// a request's timeoutMs may ask for up to the ceiling; the request or scenario budget still
// bounds it from outside.
func Expect() Budget { return expect }

// Navigation bounds navigate and reload.
func Navigation() Budget { return navigation }

// PopupWait bounds waitPopup.
func PopupWait() Budget { return popupWait }

// Screenshot bounds a captureEvidence (its budgetMs).
func Screenshot() Budget { return screenshot }

// Observation bounds observe.
func Observation() Budget { return observation }

// FailureEvidence bounds the evidence captured for a failed operation.
func FailureEvidence() Budget { return failureEvidence }

// ScenarioRun bounds one scenario, hooks and server included.
func ScenarioRun() Budget { return scenarioRun }

// ProcessStopGrace is how long a child gets after SIGTERM before its group is killed.
func ProcessStopGrace() Budget { return processStopGrace }

// FixtureReadiness bounds one managed or external fixture server's readiness probe; its
// ceiling is the browser-startup ceiling, as scenario file v1 says.
func FixtureReadiness() Budget { return fixtureReadiness }

// Hook bounds one setup/reset/cleanup hook (always also inside the scenario budget).
func Hook() Budget { return hook }

// CDPCall bounds one CDP round trip that has no operation budget of its own.
func CDPCall() Budget { return cdpCall }

// Download bounds a download operation (its timeoutMs): the click, the download's start and
// its completion.
func Download() Budget { return download }

// Wait bounds a wait operation: a load state or URL wait by default as long as a navigation
// (it usually follows one), and at most as long as one request may be; a durationMs wait
// (Playwright's waitForTimeout) at most the ceiling.
func Wait() Budget { return wait }

// All lists every budget, for documentation and for tests.
func All() []Budget {
	return []Budget{browserStartup, workerReady, request, actionVerification, readWait, expect, navigation,
		popupWait, screenshot, observation, failureEvidence, scenarioRun, processStopGrace, fixtureReadiness, hook, cdpCall, download, wait}
}

// Artifact and protocol size limits.
const (
	ScreenshotBytes  = 8 << 20   // one screenshot artifact
	DiagnosticsBytes = 256 << 10 // one diagnostics (JSON) artifact
	FrameBytes       = 16 << 20  // one JSONL line, newline excluded
	JSONNesting      = 512       // levels of arrays and objects in one frame or scenario file
	URLBytes         = 8 << 10   // one URL a caller may navigate to
	ReadTextChars    = 20000     // visible text one read returns
	AssertValueChars = 2000      // the value one assertion compares against
	ListTabsMax      = 32        // tabs a listTabs result carries (scenario indexes are 0–31)
	ScenarioFileSize = 1 << 20   // one scenario file
	ScenarioOps      = 1000      // operations in one scenario file

	// FieldValueChars bounds the field value one value assertion reads in the page; a longer
	// one is cut (and said to be), and cannot equal an asserted value (AssertValueChars).
	FieldValueChars = 20000

	// DownloadBytes bounds one downloaded file (a download artifact). The file crosses the
	// worker's stdout base64-encoded in one result frame, so its encoding (4/3 of it) plus
	// the frame's other fields must stay under FrameBytes: TestDownloadFitsAFrame.
	DownloadBytes = 8 << 20
)

// Observation (outline) limits: a request may ask for less or more, up to the ceiling.
type Limit struct {
	Name    string
	Default int
	Ceiling int
}

// The outline budgets.
var (
	outlineNodes     = Limit{Name: "maxNodes", Default: 400, Ceiling: 5000}
	outlineDepth     = Limit{Name: "maxDepth", Default: 24, Ceiling: 64}
	outlineTextChars = Limit{Name: "maxTextChars", Default: 12000, Ceiling: 100000}
)

// How much of a page the worker reads to build an outline: budgets bound work and memory,
// not only output. A document (with its same-process frames) of up to OutlineFullTreeElements
// elements has its whole accessibility tree fetched; a larger one is read in windows of at
// most OutlineWindowElements elements in at most OutlineWindowRoots subtree reads, and its
// outline is truncated. WorkerMemoryCeiling is the resident size the worker stays under
// while doing so (measured by BenchmarkObserveHugePage).
const (
	OutlineFullTreeElements = 10000
	OutlineWindowElements   = 4000
	OutlineWindowRoots      = 64
	OutlineSearchResults    = 1000 // password fields one DOM search lists
	WorkerMemoryCeiling     = 150 << 20
)

// OutlineNodes is observe's maxNodes.
func OutlineNodes() Limit { return outlineNodes }

// OutlineDepth is observe's maxDepth.
func OutlineDepth() Limit { return outlineDepth }

// OutlineTextChars is observe's maxTextChars.
func OutlineTextChars() Limit { return outlineTextChars }

// Resolve returns the value to use for a request of want (0 means the default); a
// request over the ceiling or below zero is refused.
func (l Limit) Resolve(want int) (int, error) {
	if want == 0 {
		return l.Default, nil
	}
	if want < 0 || want > l.Ceiling {
		return 0, fmt.Errorf("%s %d is outside 1–%d", l.Name, want, l.Ceiling)
	}
	return want, nil
}

// ExceededError says a caller asked for more than a ceiling. Callers turn it into an
// OperationError with code budget_exceeded.
type ExceededError struct {
	Budget    Budget
	Requested time.Duration
}

func (e *ExceededError) Error() string {
	return fmt.Sprintf("%s budget of %s is over its ceiling of %s", e.Budget.Name, e.Requested, e.Budget.Ceiling)
}

// Resolve returns the duration to use for a request of want (zero means the default). It
// refuses anything over the ceiling and raises anything under the floor to the floor.
func (b Budget) Resolve(want time.Duration) (time.Duration, error) {
	if want < 0 {
		return 0, &ExceededError{Budget: b, Requested: want}
	}
	if want == 0 {
		want = b.Default
	}
	if want > b.Ceiling {
		return 0, &ExceededError{Budget: b, Requested: want}
	}
	if want < b.Floor {
		want = b.Floor
	}
	return want, nil
}

// ResolveMs is Resolve for a millisecond count from a file or a frame.
func (b Budget) ResolveMs(ms int64) (time.Duration, error) {
	return b.Resolve(time.Duration(ms) * time.Millisecond)
}
