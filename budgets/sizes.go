package budgets

// Size limits of requests, of the bounded copies fastbrowser keeps, and of the files it reads
// back. A request over a request limit is refused (invalid_request); a bounded copy keeps
// what fits and says it was cut.

// Request fields (transport's Validate).
const (
	RequestIDBytes          = 64     // a frame's id (an error frame echoes it)
	TabHandleBytes          = 128    // a tab handle: a short opaque string
	TargetRefBytes          = 16     // an outline ref such as "e12"
	TargetNameChars         = 500    // an act target's accessible name
	TargetRoleBytes         = 64     // a locator's role
	LocatorDepth            = 4      // within/has nested inside one another
	LocatorMatches          = 1000   // elements one locator looks through (nth's range; more are not considered)
	TypedTextChars          = 100000 // the literal text one act types
	UploadFiles             = 32     // files one upload act sets
	UploadPathBytes         = 4096   // one upload path
	RedactionRules          = 32     // redaction rules one capture applies
	RedactionRuleFieldChars = 200    // a redaction rule's role, name or label
	NarrowOrigins           = 64     // origins one narrowOriginPolicy lists
	MaskSecretValues        = 256    // secret values one maskSecrets hands the worker (the runtime sends more in several)
	StepInstructionChars    = 500    // a scenario step's instruction (scenario parse)
	AssertCountMax          = 10000  // the largest count a count assertion expects
	AssertCellKeyChars      = 500    // a cell assertion's row key and column name
	ScenarioTags            = 32     // tags one scenario file lists
	ScenarioTagChars        = 64     // one tag
	AssertListItems         = 1000   // the expected texts or values one list assertion (text's or values' values) gives
	AssertNameChars         = 200    // an attribute assertion's attribute name
	StorageKeyChars         = 1000   // a storage assertion's key
	AssertJSONBytes         = 8000   // a storage assertion's jsonContains, as JSON
)

// Bounded copies.
const (
	// QuotedTitleChars bounds a page title an assertion's failure message quotes.
	QuotedTitleChars = 200
	// QuotedFoundChars bounds what an assertion's failure message quotes of what it found:
	// an element's or a cell's text, a field's value (never a password's or a secret's).
	QuotedFoundChars = 200
	// CallLogLines bounds a failure's call log (OperationError.CallLog): what was waited
	// for, then runs of equal looks folded; a longer log keeps its first and last lines.
	CallLogLines = 20
	// AssertCellRows bounds the rows of one table a cell assertion looks through.
	AssertCellRows = 5000
	// OutputLogBytes is the most a hook's or the managed server's output artifact holds,
	// header and cut note included; OutputLogHead and OutputLogTail are how much of the
	// output's start and end are kept when it is longer (their sum leaves room for the
	// notes). OutputLogScrubSlack is how much more is captured at each edge so a secret cut
	// there is still whole, and so masked, when the scrub runs: it covers secrets whose
	// longest spelling is up to this many bytes.
	OutputLogBytes      = 64 << 10
	OutputLogHead       = 40 << 10
	OutputLogTail       = 20 << 10
	OutputLogScrubSlack = 4 << 10
	// ChildLineBytes bounds one line of a child's output held in memory.
	ChildLineBytes = 64 << 10
	// ChildQueueBytes bounds a child's output queued for a slow log sink; past it output
	// is dropped (and counted), never waited on.
	ChildQueueBytes = 1 << 20
	// ScrubHoldBytes bounds the incomplete line a scrubbing writer holds between writes.
	ScrubHoldBytes = 64 << 10
	// ReadinessBodyBytes is the most of a readiness answer's body read (and discarded).
	ReadinessBodyBytes = 64 << 10
	// CDPMessageBytes is the largest CDP message the worker sends unfragmented.
	CDPMessageBytes = 1 << 20
)

// TraceBytes bounds one scenario attempt's step trace (`run --trace`): the screenshots and
// diagnostics its steps keep, held in memory until the scenario ends. A part that does not
// fit in what is left is not kept, and its step says so.
const TraceBytes = 20 << 20

// Files read back: anything larger is not one fastbrowser wrote, and is refused unread.
const (
	ReportBytes = 64 << 20 // a report.json (`fastbrowser report`, `replay`)
	// A session's session.json, and its history.jsonl (which also stops growing there: a
	// `do` past it is refused).
	SessionRecordBytes  = 1 << 20
	SessionHistoryBytes = 8 << 20
)

// One sweep of the sessions' state directory looks at most at SessionSweepEntries sessions.
const SessionSweepEntries = 256

// One sweep of stale Chromium profiles at launch lists at most SweepEntries entries of the
// temp directory and removes at most SweepRemovals (a huge or hostile temp directory cannot
// slow a launch much).
const (
	SweepEntries  = 4096
	SweepRemovals = 16
)

// Bounded lists and texts in what the worker and the runtime report: past a bound the rest
// is left out (and counted or marked where the format says so), never waited on or grown.
const (
	ProxyRefusalsKept    = 256  // refusals the egress proxy keeps until they are reported
	PageDestinationsKept = 1024 // host:ports the worker refused for pages, kept to tell browser background apart
	FrameDepth           = 32   // out-of-process frames deep anything walks (Chromium stops nesting long before)
	SelectOptionsShown   = 30   // option labels one select shows in an outline; more end in "… N more"
	OutlineNameChars     = 200  // one outline name, text or option label; longer ones end in "…"
	MaskTargets          = 500  // elements one capture resolves for masking (past it: redaction not proven)
	MaskItems            = 2000 // everything one capture masks: elements, echoed text runs (likewise)
	MaskCallsInFlight    = 16   // goroutines one fan-out of a capture's mask search runs at a time (per level: sessions, searches, elements; the levels nest, so a tab with many out-of-process frames can have several hundred CDP calls in flight)
	ConsoleEntries       = 100  // console messages a tab keeps for evidence
	NetworkEntries       = 100  // network requests a tab keeps for evidence
	ValidateErrors       = 50   // errors `validate` lists for one file; more are counted
	ConsoleMessageChars  = 300  // one console message as evidence keeps it
	NetworkPathChars     = 300  // one request's URL path as network evidence keeps it
	PendingRequests      = 2048 // requests in flight a tab tracks for the network summary
	RunJobs              = 64   // scenarios `run --jobs` runs at a time, at most
	// RunRetries is the most `run --retries` reruns one scenario that did not pass. Each
	// attempt may use the whole scenario budget (up to 120 s), so 5 already lets one scenario
	// hold a job for 12 minutes; and a scenario that needs more than 5 reruns to pass is
	// broken, not flaky: more retries would only hide that.
	RunRetries = 5
)

// A session's viewport (a scenario's "viewport"): each side between ViewportMin and
// ViewportMax CSS pixels.
const (
	ViewportMin = 100
	ViewportMax = 8192
)
