package sessions

import (
	"errors"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
)

// What the session commands print: exactly one JSON object each (docs/sessions.md).

// ErrorOutput is a failed command's output: {"error":{"code","message",…}}.
type ErrorOutput struct {
	Error *ErrorBody `json:"error"`
}

// ErrorBody is the error of a session command. Cause is the protocol code of an operation
// that ran and failed (element_not_found, budget_exceeded, …); Path the field a refusal is
// about.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Cause   string `json:"cause,omitempty"`
	Path    string `json:"path,omitempty"`
}

// coded is an error that carries one of the session codes.
type coded interface {
	error
	Code() string
}

// AsError is err as a session error body: a session code kept, a protocol error mapped to
// one, anything else "failed" with its message.
func AsError(err error) *ErrorBody {
	var se *Error
	if errors.As(err, &se) {
		return &ErrorBody{Code: se.code, Message: se.Message, Cause: se.cause, Path: se.path}
	}
	var c coded
	if errors.As(err, &c) {
		return &ErrorBody{Code: c.Code(), Message: c.Error()}
	}
	var oe *transport.OperationError
	if errors.As(err, &oe) {
		b := &ErrorBody{Code: CodeFailed, Message: oe.Message, Cause: string(oe.Code), Path: oe.Path}
		switch oe.Code {
		case transport.CodeLaunchFailed, transport.CodeBrowserCrashed, transport.CodeWorkerCrashed:
			b.Code = CodeLaunchFailed
		case transport.CodeInvalidRequest, transport.CodeBudgetExceeded:
			b.Code = CodeInvalidInput
		case transport.CodeSessionEnded:
			b.Code = CodeEnded
		default:
			b.Code = CodeOperationFailed
		}
		return b
	}
	return &ErrorBody{Code: CodeFailed, Message: err.Error()}
}

// Enforcement is what the session enforces.
type Enforcement struct {
	AllowedOrigins []string `json:"allowedOrigins"`
	// EnforcedBy: "browser" (request interception) and "proxy" (the egress proxy).
	EnforcedBy     []string `json:"enforcedBy"`
	WebRTC         string   `json:"webrtc"`
	ServiceWorkers string   `json:"serviceWorkers"`
	Subresources   string   `json:"subresources"`
}

// Page is the selected page after a command.
type Page struct {
	Tab       string `json:"tab,omitempty"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	PageClass string `json:"pageClass,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	// Outline is observe's text: the page for people and models, refs included.
	Outline string `json:"outline"`
	// Error says why the page could not be read (the result is still given).
	Error *ErrorBody `json:"error,omitempty"`
}

// Refused is a page the site refused: its host, HTTP status, and the bot check it shows.
type Refused struct {
	Host     string `json:"host"`
	Status   int    `json:"status,omitempty"`
	BotCheck string `json:"bot_check,omitempty"`
	Message  string `json:"message"`
}

// OpenResult is `session open`'s output.
type OpenResult struct {
	ID     string `json:"id"`
	Page          // url, title, outline of the first page
	CDPURL string `json:"cdp_url"`
	// TLSVerified: the page is https and the certificate proxy verified its host (only a
	// session with --trusted-ca or --client-cert has one); false means no such evidence.
	TLSVerified bool `json:"tls_verified"`
	// Warnings are what the certificate proxy reported that no error said (a subresource's
	// host failing TLS).
	Warnings      []string    `json:"warnings,omitempty"`
	Enforcement   Enforcement `json:"enforcement"`
	IdleTimeoutMs int64       `json:"idleTimeoutMs"`
	IdleDeadline  time.Time   `json:"idleDeadline"`
	Profile       string      `json:"profile,omitempty"`
	Artifacts     string      `json:"artifacts"`
	Refused       *Refused    `json:"refused,omitempty"`
}
