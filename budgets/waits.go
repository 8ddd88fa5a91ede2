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
	// AssertPoll is how often a bounded assertion reads the page again.
	AssertPoll = 100 * time.Millisecond
	// ActPoll is how often an act reads an element's state again while it waits for the
	// element to become actionable or for the action's effect.
	ActPoll = 50 * time.Millisecond
)

// Fixture readiness probing: each GET is bounded by ReadinessProbe; between probes the wait
// starts at ReadinessBackoff and doubles up to ReadinessBackoffCap (all inside the
// FixtureReadiness budget).
const (
	ReadinessProbe      = time.Second
	ReadinessBackoff    = 50 * time.Millisecond
	ReadinessBackoffCap = 500 * time.Millisecond
)

// The egress proxy's network timeouts (runtime/egressproxy).
const (
	// ProxyDial bounds one connection to an allowed destination, and its TLS handshake.
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
