package transport

import (
	"errors"
	"fmt"
)

// Code is a stable, lower-snake-case failure code. The list is closed and documented in
// docs/protocol.md; callers match on it with errors.Is(err, transport.ErrCode(code)).
type Code string

const (
	CodeInvalidRequest       Code = "invalid_request"
	CodeBudgetExceeded       Code = "budget_exceeded"
	CodeTimeout              Code = "timeout"
	CodeOriginDenied         Code = "origin_denied"
	CodeEgressDenied         Code = "egress_denied"
	CodeTabNotFound          Code = "tab_not_found"
	CodeStaleDocument        Code = "stale_document"
	CodeElementNotFound      Code = "element_not_found"
	CodeElementAmbiguous     Code = "element_ambiguous"
	CodeElementNotActionable Code = "element_not_actionable"
	CodeAssertionFailed      Code = "assertion_failed"
	CodePostconditionFailed  Code = "postcondition_failed"
	CodeNavigationFailed     Code = "navigation_failed"
	CodeTLSFailed            Code = "tls_failed"
	CodePageRefused          Code = "page_refused"
	CodeHandoffRequired      Code = "handoff_required"
	CodeRedactionNotProven   Code = "redaction_not_proven"
	CodeArtifactTooLarge     Code = "artifact_too_large"
	CodeWorkerCrashed        Code = "worker_crashed"
	CodeProtocolError        Code = "protocol_error"
	CodeLaunchFailed         Code = "launch_failed"
	CodeBrowserCrashed       Code = "browser_crashed"
	CodeSessionExpired       Code = "session_expired"
	CodeSessionEnded         Code = "session_ended"
	CodeSessionNotOwned      Code = "session_not_owned"
	CodeSessionBusy          Code = "session_busy"
	CodeSessionNotFound      Code = "session_not_found"
	CodeModelRequired        Code = "model_required"
	CodeModelFailed          Code = "model_failed"
	CodeTaskRefused          Code = "task_refused"
	CodeTaskBusy             Code = "task_busy"
	CodeTaskStale            Code = "task_stale"
	CodeTaskNotFound         Code = "task_not_found"
	CodeFixtureNotReady      Code = "fixture_not_ready"
	CodeFixturePortInUse     Code = "fixture_port_in_use"
	CodeHookFailed           Code = "hook_failed"
	CodeCancelled            Code = "cancelled"
	CodeInternal             Code = "internal"
)

// Phase says where in an operation's life it failed.
type Phase string

const (
	PhaseValidate Phase = "validate"
	PhasePolicy   Phase = "policy"
	PhaseDispatch Phase = "dispatch"
	PhaseExecute  Phase = "execute"
	PhaseVerify   Phase = "verify"
	PhaseEvidence Phase = "evidence"
	PhaseTeardown Phase = "teardown"
)

// Retry says whether repeating the same call can help and is safe.
type Retry string

const (
	RetrySafe   Retry = "safe"   // nothing was attempted and the cause may pass
	RetryUnsafe Retry = "unsafe" // a mutation may have happened
	RetryNever  Retry = "never"  // retrying cannot help
)

// MutationState says what the page may have seen of the operation. It is mandatory.
type MutationState string

const (
	NotAttempted MutationState = "not_attempted" // nothing reached the page
	Verified     MutationState = "verified"      // the action's effect was observed
	Unknown      MutationState = "unknown"       // it may have happened
)

// OperationError is the one shape of every failure. Message is safe to show: no page text
// beyond what the operation was asked to match, no secret, no raw Go error chain.
type OperationError struct {
	Operation     string        `json:"operation"`
	Phase         Phase         `json:"phase"`
	Code          Code          `json:"code"`
	Message       string        `json:"message"`
	Retry         Retry         `json:"retry"`
	MutationState MutationState `json:"mutationState"`
	// Path names the field a validation error is about, e.g. "request.url".
	Path string `json:"path,omitempty"`
	// Blocked lists the requests the origin policy refused during the operation.
	Blocked []Blocked `json:"blocked,omitempty"`
	// Dialogs lists the JavaScript dialogs answered during the operation (and since the
	// previous one).
	Dialogs []Dialog `json:"dialogs,omitempty"`
	// Turns are a failed task's or extract's turn receipts, the failing turn last
	// (content-free: docs/models.md "Receipts").
	Turns []TurnReceipt `json:"turns,omitempty"`
	// Actions are a failed task's dispatched actions, as a result lists them (TaskResult):
	// none is left out, and none is there when nothing was dispatched.
	Actions []TaskAction `json:"actions,omitempty"`
	// Expected and Received say, for a failed assertion, what it asked for and what the
	// page had when the wait ended — only what the assertion asked about (the element's
	// text, value, class, attribute, a count, the URL…), clipped, a typed secret never
	// quoted. A list (text of every match) is written as a JSON array. Received is absent
	// when nothing was found to compare (the element never appeared).
	Expected string `json:"expected,omitempty"`
	Received string `json:"received,omitempty"`
	// CallLog says what an assertion (or an act's wait) waited for and what each look saw,
	// runs of equal looks folded: "waiting for button \"Save\" to be visible",
	// "3 × not visible (display:none)". Bounded (budgets.CallLogLines).
	CallLog []string `json:"callLog,omitempty"`
	// The failure evidence the runtime keeps for a failure travels beside it, in an
	// *EvidencedError (evidenceerror.go), never in these fields.

	cause error // local only; never crosses the wire or reaches a message
}

func (e *OperationError) Error() string {
	op := e.Operation
	if op == "" {
		op = "fastbrowser"
	}
	if e.Path != "" {
		return fmt.Sprintf("%s: %s: %s: %s", op, e.Code, e.Path, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", op, e.Code, e.Message)
}

// Is matches another *OperationError by code, so errors.Is survives the wire.
func (e *OperationError) Is(target error) bool {
	t, ok := target.(*OperationError)
	return ok && t.Code == e.Code
}

// Unwrap gives local callers (and logs on stderr) the cause; it is never serialised.
func (e *OperationError) Unwrap() error { return e.cause }

// ErrCode returns a value to compare with errors.Is: errors.Is(err, ErrCode(CodeTimeout)).
func ErrCode(c Code) error { return &OperationError{Code: c} }

// NewError builds an OperationError. retry and mutation are chosen by the caller because only
// it knows whether anything reached the page.
func NewError(op string, phase Phase, code Code, retry Retry, mut MutationState, format string, args ...any) *OperationError {
	return &OperationError{Operation: op, Phase: phase, Code: code, Retry: retry, MutationState: mut,
		Message: fmt.Sprintf(format, args...)}
}

// WithCause attaches a local cause (kept out of the wire form and the message).
func (e *OperationError) WithCause(err error) *OperationError { e.cause = err; return e }

// WithPath sets the field path a validation error is about.
func (e *OperationError) WithPath(p string) *OperationError { e.Path = p; return e }

// Invalid is the common refusal of a request before anything was attempted.
func Invalid(op, path, format string, args ...any) *OperationError {
	return NewError(op, PhaseValidate, CodeInvalidRequest, RetryNever, NotAttempted, format, args...).WithPath(path)
}

// AsOperationError returns err as an *OperationError, wrapping anything else as internal with
// a generic message (raw error text is not safe to report).
func AsOperationError(op string, err error) *OperationError {
	if err == nil {
		return nil
	}
	var oe *OperationError
	if errors.As(err, &oe) {
		if oe.Operation == "" {
			cp := *oe
			cp.Operation = op
			return &cp
		}
		return oe
	}
	return NewError(op, PhaseExecute, CodeInternal, RetryUnsafe, Unknown, "internal error").WithCause(err)
}

// Posture is the summary an agent host acts on.
type Posture string

const (
	PostureOK              Posture = "ok"
	PostureHandoffRequired Posture = "handoff_required"
	PostureEgressDenied    Posture = "egress_denied"
	PostureFailed          Posture = "failed"
)

// PostureOf maps an operation's outcome to its posture. Both refusals of the origin policy
// are egress_denied (seed 000): in the browser (egress_denied) and before anything was sent
// (origin_denied: a navigate, a context or a narrowing naming an origin the policy does not
// allow), so a host acts on every denial alike.
func PostureOf(err error) Posture {
	if err == nil {
		return PostureOK
	}
	switch {
	case errors.Is(err, ErrCode(CodeHandoffRequired)):
		return PostureHandoffRequired
	case errors.Is(err, ErrCode(CodeEgressDenied)), errors.Is(err, ErrCode(CodeOriginDenied)):
		return PostureEgressDenied
	}
	return PostureFailed
}
