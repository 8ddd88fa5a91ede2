package transport

import (
	"encoding/json"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Version is the protocol version every frame carries as "v".
const Version = 1

// requestFrame: {"v":1,"id":"7","op":"navigate","request":{...},"context":{...},"timeoutMs":15000}
type requestFrame struct {
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

// responseFrame: {"v":1,"id":"7","result":{...},"posture":"ok"} or with "error". ID is
// empty only for an error about a line whose id could not be read.
type responseFrame struct {
	V       int             `json:"v" required:"true"`
	ID      string          `json:"id,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *OperationError `json:"error,omitempty"`
	Posture Posture         `json:"posture,omitempty"`
}

// errorFrame is how Serve writes a failure: responseFrame's shape, whose error object also
// carries the failure evidence the runtime kept beside the error (see evidenceerror.go), as
// {"error":{…,"evidence":[…],"evidenceUnavailable":[…]}}.
type errorFrame struct {
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

// cancelFrame: {"v":1,"cancel":"7"} asks the worker to stop request 7.
type cancelFrame struct {
	V      int    `json:"v" required:"true"`
	Cancel string `json:"cancel" required:"true"`
}

// readyFrame: the worker's first line, {"v":1,"ready":{"protocol":1,"browser":"Chrome/…"}}.
type readyFrame struct {
	V     int       `json:"v" required:"true"`
	Ready ReadyInfo `json:"ready" required:"true"`
}

// ReadyInfo is what the worker says about itself once it can take requests.
type ReadyInfo struct {
	Protocol int    `json:"protocol" required:"true"`
	Browser  string `json:"browser"`
}

// maxIDLen bounds a request id so an error frame echoing it stays small.
const maxIDLen = budgets.RequestIDBytes
