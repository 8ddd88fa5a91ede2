package transport

import (
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Version is the protocol version every frame carries as "v".
const Version = 1

// RequestFrame: {"v":1,"id":"7","op":"navigate","request":{...},"context":{...},"timeoutMs":15000}
type RequestFrame struct {
	V       int               `json:"v" required:"true"`
	ID      string            `json:"id" required:"true"`
	Op      string            `json:"op" required:"true"`
	Request json.RawMessage   `json:"request,omitempty"`
	Context *OperationContext `json:"context,omitempty"`
	// Session and Task name the session a request to a multi-session host is for, and the
	// task that owns it (hostops.go); a single session ignores them.
	Session string `json:"session,omitempty"`
	Task    string `json:"task,omitempty"`
	// TimeoutMs is this call's request budget (0: the default; see requestbudget.go).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// ResponseFrame: {"v":1,"id":"7","result":{...},"posture":"ok"} or with "error". ID is
// empty only for an error about a line whose id could not be read.
type ResponseFrame struct {
	V       int             `json:"v" required:"true"`
	ID      string          `json:"id,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *OperationError `json:"error,omitempty"`
	Posture Posture         `json:"posture,omitempty"`
}

// ErrorFrame is how a server writes a failure (FailureFrame): ResponseFrame's shape, whose error object also
// carries the failure evidence the runtime kept beside the error (see evidenceerror.go), as
// {"error":{…,"evidence":[…],"evidenceUnavailable":[…]}}.
type ErrorFrame struct {
	V       int       `json:"v" required:"true"`
	ID      string    `json:"id,omitempty"`
	Error   wireError `json:"error"`
	Posture Posture   `json:"posture,omitempty"`
}

// wireError is an OperationError's wire form: its fields, then the evidence beside it.
type wireError struct {
	*OperationError
	Evidence            []ArtifactMeta    `json:"evidence,omitempty"`
	EvidenceUnavailable []UnavailablePart `json:"evidenceUnavailable,omitempty"`
}

// FailureFrame is the error frame for op's failure err on request id ("" when the id could
// not be read): its *OperationError (internal when it is none), the evidence the runtime
// kept beside it, and the posture its code gives. Every writer of error frames builds them
// here, so a failure reads the same from a worker, a session server and a host call.
func FailureFrame(id, op string, err error) ErrorFrame {
	oe := AsOperationError(op, err)
	evidence, unavailable := EvidenceOf(err)
	return ErrorFrame{V: Version, ID: id, Posture: PostureOf(oe),
		Error: wireError{OperationError: oe, Evidence: evidence, EvidenceUnavailable: unavailable}}
}

// CancelFrame: {"v":1,"cancel":"7"} asks the worker to stop request 7.
type CancelFrame struct {
	V      int    `json:"v" required:"true"`
	Cancel string `json:"cancel" required:"true"`
}

// ReadyFrame: the worker's first line, {"v":1,"ready":{"protocol":1,"browser":"Chrome/…"}}.
type ReadyFrame struct {
	V     int       `json:"v" required:"true"`
	Ready ReadyInfo `json:"ready" required:"true"`
}

// ReadyInfo is what the worker says about itself once it can take requests.
type ReadyInfo struct {
	Protocol int    `json:"protocol" required:"true"`
	Browser  string `json:"browser"`
}

// maxIDLen bounds a request id so an error frame echoing it stays small.
const MaxIDLen = budgets.RequestIDBytes
