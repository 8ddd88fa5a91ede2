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
	TypedTextChars          = 100000 // the literal text one act types
	UploadFiles             = 32     // files one upload act sets
	UploadPathBytes         = 4096   // one upload path
	RedactionRules          = 32     // redaction rules one capture applies
	RedactionRuleFieldChars = 200    // a redaction rule's role, name or label
	NarrowOrigins           = 64     // origins one narrowOriginPolicy lists
	StepInstructionChars    = 500    // a scenario step's instruction (scenario parse)
)

// Bounded copies.
const (
	// QuotedTitleChars bounds a page title an assertion's failure message quotes.
	QuotedTitleChars = 200
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

// Files read back: anything larger is not one fastbrowser wrote, and is refused unread.
const (
	ReportBytes = 64 << 20 // a report.json (`fastbrowser report`, `replay`)
)
