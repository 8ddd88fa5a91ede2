package budgets

import "time"

// Fixed waits inside the published budgets: margins, reserves, poll intervals and the egress
// proxy's network timeouts. None is a caller's to choose; each says how a budget above is
// spent, or bounds a wait that no single operation owns.
const (
	// ClientMargin is what the client's deadline for one call adds to the operation's own
	// budget (a round trip), so the worker's budget fires first and says which budget.
	ClientMargin = 2 * time.Second
	// FailureEvidenceMargin is how long failure evidence waits for the worker's answer
	// beyond the worker's own failure-evidence budget: a round trip and the payloads'
	// transfer. A hung page delays a failure by FailureEvidence().Default + this at most.
	FailureEvidenceMargin = 500 * time.Millisecond
	// ObserveReserve is the part of the observation budget kept for building the outline
	// after the frames are read.
	ObserveReserve = 300 * time.Millisecond
	// ObserveStampWait is how long an observe waits, out of its reserve, for the document's
	// stamp after reading the tree (is the tree of the document the page info was read
	// from?); a renderer busy with a huge page that does not answer in time leaves the
	// question to the tab's loader.
	ObserveStampWait = 100 * time.Millisecond
	// ObserveRetakes is how many times an observe looks again when a new document
	// committed while it looked (a navigation in flight), within the same budget.
	ObserveRetakes = 2
	// ObserveSwapRetakes is how many times an observe looks again when the browser answered
	// that a node or context it was reading is gone (the document was being replaced: a
	// navigation a click started had not committed when the look began), each after
	// ObserveSwapPause, within the same budget. Observe only reads, so looking again is safe.
	ObserveSwapRetakes = 5
	ObserveSwapPause   = 100 * time.Millisecond
	// AssertPoll is how often a bounded assertion reads the page again.
	AssertPoll = 100 * time.Millisecond
	// ActPoll is how often an act looks for its target and reads its state again while it
	// waits for the target to appear and become actionable, or for the action's effect.
	ActPoll = 50 * time.Millisecond
	// WaitPoll is how often a url wait reads the main frame's URL again besides the tab's
	// own changes: a same-document navigation (a hash change, a pushState) changes no tab state.
	WaitPoll = 100 * time.Millisecond
	// ActSettle bounds, after an act's input, the page's turn of its task queue that lets a
	// navigation the action's handlers queued (a form submit) be asked for, so the act can
	// wait for it; a page too busy to take the turn in time is not waited on any longer.
	ActSettle = 500 * time.Millisecond
)

// Fixture readiness probing: each GET is bounded by ReadinessProbe; between probes the wait
// starts at ReadinessBackoff and doubles up to ReadinessBackoffCap (all inside the
// FixtureReadiness budget).
const (
	ReadinessProbe      = time.Second
	ReadinessBackoff    = 50 * time.Millisecond
	ReadinessBackoffCap = 500 * time.Millisecond
)

// The egress proxy's network timeouts (runtime/internal/egressproxy).
const (
	// ProxyDial bounds one connection to an allowed destination, and its TLS handshake;
	// through an upstream proxy, the dial to it and its answer to CONNECT together.
	ProxyDial = 5 * time.Second
	// ProxyResponseHeader bounds the wait for a destination's response headers.
	ProxyResponseHeader = 30 * time.Second
	// ProxyIdleConn is how long an idle upstream connection is kept for reuse.
	ProxyIdleConn = 30 * time.Second
	// ProxyReadHeader bounds reading the browser's request headers.
	ProxyReadHeader = 30 * time.Second
	// ProxyCloseWait is how long Close waits for in-flight requests before it reports them.
	ProxyCloseWait = 2 * time.Second
)

// Housekeeping of the processes and profiles fastbrowser starts (runtime/process,
// runtime/chromium).
const (
	// ProfileSweep bounds the wall time of one sweep of stale Chromium profiles at launch
	// (with SweepEntries and SweepRemovals: what one sweep leaves, a later one takes), and
	// SingletonDial one connect to a singleton socket (a live listener answers at once).
	ProfileSweep  = 250 * time.Millisecond
	SingletonDial = 50 * time.Millisecond
	// StaleProfileAge is how old a profile without SingletonLock (or a singleton directory
	// without SingletonSocket) must be to count as stale: legitimately they exist only while
	// a launch starts or a clean exit is cleaned up, seconds; absence alone proves nothing,
	// so the margin is 30 times that.
	StaleProfileAge = 10 * time.Minute
	// ProfileRemoveRetry is the pause before the one retry of removing a killed browser's
	// profile (a helper that was still writing can refill it during the first pass).
	ProfileRemoveRetry = 100 * time.Millisecond
	// ProcessPoll and TreePoll are how often a stop checks again whether a process group,
	// or the processes that left it, are gone (always inside ProcessStopGrace).
	ProcessPoll = 5 * time.Millisecond
	TreePoll    = 10 * time.Millisecond
	// ExecSettle bounds how long one look at a process's environment waits for an exec in
	// progress to finish: until the kernel has laid out the new image, /proc/PID/environ
	// reads empty although /proc/PID/exe already names the new program.
	ExecSettle = 500 * time.Millisecond
	// SupervisorAnswer bounds the process supervisor's answers: its readiness after it is
	// started, and its report of one child's fork and exec. A supervisor that does not
	// answer in time is given up (children then start directly).
	SupervisorAnswer = 10 * time.Second
	// SupervisorSweep bounds the wall time of the sweep a starting supervisor makes of the
	// processes an earlier one left behind when it died with its parent (SIGKILL of both).
	SupervisorSweep = 500 * time.Millisecond
)

// The sessions' state directory (scenario/sessions).
const (
	// SessionKeep is how long an ended session's directory (record and history, for `session
	// list` and export) is kept before a sweep removes it.
	SessionKeep = 24 * time.Hour
	// SessionRecordLock bounds the wait for a session's record lock (another command's
	// read-modify-write of session.json or history.jsonl: milliseconds); SessionHostLock the
	// host's wait for its own lock (a sweeping client's try-lock holds it for microseconds).
	// SessionLockPoll is how often either tries again.
	SessionRecordLock = 5 * time.Second
	SessionHostLock   = 100 * time.Millisecond
	SessionLockPoll   = 2 * time.Millisecond
)
