package transport

import (
	"slices"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Evidence (issue 5): captureEvidence and the payloads that carry evidence across the
// transport. The worker never writes files: it returns payloads, the runtime commits them to
// its artifact store and answers with artifact metadata instead.

// RedactionRule selects elements to mask before a screenshot: by ARIA role, accessible name
// or label (each given field must match exactly, case-insensitively; at least one field).
// Password fields and fields that received a secret are always masked, rules or not.
type RedactionRule struct {
	Role  string `json:"role,omitempty"`
	Name  string `json:"name,omitempty"`
	Label string `json:"label,omitempty"`
}

// CaptureEvidence captures what a tab shows: a redacted screenshot, console and network
// summaries, and the outline.
type CaptureEvidence struct {
	op[CaptureEvidence, CaptureEvidenceResult]
	Tab       string          `json:"tab,omitempty" handle:"tab"`
	RunID     string          `json:"runId" required:"true"`
	Operation string          `json:"operation" required:"true"` // the operation the evidence is for: one of EvidenceOperations
	Redaction []RedactionRule `json:"redaction,omitempty"`
	// BudgetMs bounds the capture (0: the screenshot budget's 10 s; at least its 2 s floor,
	// at most its 60 s ceiling); parts not captured in time are reported unavailable.
	BudgetMs int `json:"budgetMs,omitempty"`
	// Parts names the parts to gather (none: all four). A part not named is neither
	// captured nor listed unavailable: a step trace asks only for the console and network
	// summaries after a step that cannot have changed the page, sparing the screenshot's
	// frame and the outline.
	Parts []string `json:"parts,omitempty"`
}

// EvidenceParts are captureEvidence's parts, in the order it gathers them.
var EvidenceParts = []string{PartConsole, PartNetwork, PartScreenshot, PartOutline}

// Wants says whether the capture gathers part.
func (r *CaptureEvidence) Wants(part string) bool {
	return len(r.Parts) == 0 || slices.Contains(r.Parts, part)
}

// Evidence parts and payload kinds.
const (
	PartScreenshot = "screenshot"
	PartConsole    = "console"
	PartNetwork    = "network"
	PartOutline    = "outline"
)

// ArtifactPayload is one piece of evidence on the wire (DESIGN.md "Artifacts").
type ArtifactPayload struct {
	Kind        string `json:"kind"`        // screenshot | console | network | outline
	ContentType string `json:"contentType"` // image/png | application/json
	Encoding    string `json:"encoding"`    // base64
	DataBase64  string `json:"dataBase64"`
	ByteLength  int    `json:"byteLength"` // decoded length
	Truncated   bool   `json:"truncated"`
}

// RedactionProof is the worker's account of masking, measured after masking and before the
// capture. A screenshot is kept only when Proven: rules were applied and Unmasked is 0.
type RedactionProof struct {
	Rules    []string `json:"rules"`    // applied: "password", "secret-field", "role=…", "name=…", "label=…"
	Matched  int      `json:"matched"`  // elements the rules matched
	Masked   int      `json:"masked"`   // of those, masked
	Unmasked int      `json:"unmasked"` // of those, still showing after masking
	// FramesUninspected counts frames on the page (an out-of-process frame not attached, or
	// still paused) that masking could not look into: any makes the proof not proven.
	FramesUninspected int  `json:"framesUninspected,omitempty"`
	Proven            bool `json:"proven"`
}

// UnavailablePart says why one part of the evidence is missing: it is reported, never faked.
type UnavailablePart struct {
	Part    string `json:"part"`
	Code    Code   `json:"code"` // redaction_not_proven, artifact_too_large, timeout, internal
	Message string `json:"message"`
}

// ConsoleEntry is one console summary line: identical messages are counted, not repeated.
type ConsoleEntry struct {
	Level   string `json:"level"` // log | info | warning | error | debug
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// NetworkEntry is one request that went wrong. URL is the origin and Path the URL's path
// (at most budgets.NetworkPathChars characters, secrets masked), so a 404'd file can be
// found; never a query, fragment, header, cookie or body. Size is the response's encoded
// bytes when it finished loading (0: unknown, or no response).
type NetworkEntry struct {
	Method   string `json:"method"`
	URL      string `json:"url"`
	Path     string `json:"path,omitempty"`
	Status   int    `json:"status,omitempty"`
	Size     int64  `json:"size,omitempty"`
	Category string `json:"category"` // failed | blocked | http_error
	Count    int    `json:"count"`
}

// ConsoleSummary and NetworkSummary are the JSON of the console and network artifacts.
type ConsoleSummary struct {
	Entries   []ConsoleEntry `json:"entries"`
	Truncated bool           `json:"truncated"`
}

type NetworkSummary struct {
	Entries   []NetworkEntry `json:"entries"`
	Truncated bool           `json:"truncated"`
}

// CaptureEvidenceResult: from the worker it carries Payloads; the runtime commits them and
// returns Artifacts (metadata) in their place.
type CaptureEvidenceResult struct {
	Egress
	Tab         string            `json:"tab" handle:"tab"`
	Payloads    []ArtifactPayload `json:"payloads,omitempty"`
	Artifacts   []ArtifactMeta    `json:"artifacts,omitempty"`
	Redaction   *RedactionProof   `json:"redaction,omitempty"`
	Unavailable []UnavailablePart `json:"unavailable,omitempty"`
}

// ArtifactMeta describes one committed artifact. It is what reports and results carry:
// never the bytes. Path is relative to the store's root, always
// "<sessionId>/<runId>/<artifactId>.<ext>". (artifacts.Meta is this type.)
type ArtifactMeta struct {
	ID             string `json:"id"`
	Owner          string `json:"owner"` // who asked for it: a scenario id, a session id
	Kind           string `json:"kind"`  // screenshot | console | network | outline | log (hook and server output)
	Path           string `json:"path"`
	Bytes          int64  `json:"bytes"`
	ContentType    string `json:"contentType"` // image/png | application/json
	SHA256         string `json:"sha256"`      // hex of the committed bytes
	Truncated      bool   `json:"truncated,omitempty"`
	LocalOnly      bool   `json:"localOnly"`      // always true: evidence never leaves this machine
	ModelForwarded bool   `json:"modelForwarded"` // always false: never sent to a model
}

// capture is a request bounded by the screenshot budget (captureEvidence, screenshot): the
// rows whose Deadline is captureDeadline.
type capture interface {
	Operation
	captureBudgetMs() int
}

func (r CaptureEvidence) captureBudgetMs() int { return r.BudgetMs }

// captureDeadline: a capture's own budget (its budgetMs resolved against the screenshot
// budget) plus the margin. Validate refused a budgetMs the budget would not resolve.
func captureDeadline(op Operation, _ time.Duration) time.Duration {
	d := budgets.Screenshot().Ceiling
	if r, err := budgets.Screenshot().ResolveMs(int64(op.(capture).captureBudgetMs())); err == nil {
		d = r
	}
	return d + budgets.ClientMargin
}

// checkCaptureBudget refuses a capture's budgetMs over the screenshot budget's ceiling.
func checkCaptureBudget(op string, ms int) error {
	if _, err := budgets.Screenshot().ResolveMs(int64(ms)); err != nil {
		return NewError(op, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "budgetMs must be between 0 and %d", budgets.Screenshot().Ceiling.Milliseconds()).WithPath("request.budgetMs")
	}
	return nil
}
