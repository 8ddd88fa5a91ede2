package transport

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport/names"
)

// The multi-session host's operations (issue 13): `fastbrowser serve --binding-origin …`
// hosts many sessions, each owned by one task, over one protocol v1 connection. These rows
// of the operation table are answered by the host itself (OpSpec.Host), never by a worker.
// Every other request to such a host names its session and task in the frame:
//
//	{"v":1,"id":"7","session":"s1","task":"T-42","op":"navigate","request":{…}}

// Host op names.
const (
	OpOpenSession  = "openSession"
	OpCloseSession = "closeSession"
	OpEndTask      = "endTask"
	OpBatch        = "batch"
)

// PageTextBudgets are a session's page_text (observe) budgets: each 0 is observe's default,
// each at most its ceiling.
type PageTextBudgets struct {
	MaxNodes     int `json:"maxNodes,omitempty"`
	MaxDepth     int `json:"maxDepth,omitempty"`
	MaxTextChars int `json:"maxTextChars,omitempty"`
}

// OpenSession opens a session for a task: a browser context of its own under origins that
// must be a non-empty subset of the host's binding (deny by default).
type OpenSession struct {
	op[OpenSession, OpenSessionResult]
	Task           string   `json:"task" required:"true"`
	AllowedOrigins []string `json:"allowedOrigins" required:"true"`
	// IdleTimeoutS ends the session after this many seconds without a request (0: the
	// host's default).
	IdleTimeoutS int `json:"idleTimeoutS,omitempty"`
	// HandoffClasses are the page classes that end a batch with handoff_required.
	HandoffClasses []string         `json:"handoffClasses,omitempty"`
	PageText       *PageTextBudgets `json:"pageText,omitempty"`
	// Redaction adds rules to every screenshot of the session.
	Redaction []RedactionRule `json:"redaction,omitempty"`
}

// OpenSessionResult names the new session.
type OpenSessionResult struct {
	Egress
	Session        string   `json:"session"`
	Task           string   `json:"task"`
	AllowedOrigins []string `json:"allowedOrigins"`
	IdleTimeoutS   int      `json:"idleTimeoutS"`
	Enforcement    []string `json:"enforcement"`
}

// CloseSession ends one session of the task; its id is never reopened.
type CloseSession struct {
	op[CloseSession, CloseSessionResult]
	Session string `json:"session" required:"true"`
	Task    string `json:"task" required:"true"`
}

// CloseSessionResult confirms the close.
type CloseSessionResult struct {
	Egress
	Session string `json:"session"`
	Closed  bool   `json:"closed"`
}

// EndTask ends every session the task owns.
type EndTask struct {
	op[EndTask, EndTaskResult]
	Task string `json:"task" required:"true"`
}

// EndTaskResult lists the sessions the end closed.
type EndTaskResult struct {
	Egress
	Task   string   `json:"task"`
	Closed []string `json:"closed"`
}

// Batch verbs (the seed's BrowserAction verbs).
const (
	VerbNavigate   = "navigate"
	VerbClick      = "click"
	VerbType       = "type"
	VerbSubmit     = "submit"
	VerbScreenshot = "screenshot"
	VerbDownload   = "download"
	VerbPageText   = "page_text"
)

// BatchVerbs lists the verbs in documentation order.
var BatchVerbs = []string{VerbNavigate, VerbClick, VerbType, VerbSubmit, VerbScreenshot, VerbDownload, VerbPageText}

// BatchAction is one action of a batch: a verb and its fields.
type BatchAction struct {
	Action string  `json:"action" required:"true"`
	URL    string  `json:"url,omitempty"`    // navigate
	Target *Target `json:"target,omitempty"` // click, type, submit, download
	Text   *Text   `json:"text,omitempty"`   // type
}

// Batch runs actions in order in one session and ends on the first egress denial, failure,
// or page whose class is one of the session's handoff classes; the rest are skipped.
type Batch struct {
	op[Batch, BatchResult]
	Actions []BatchAction `json:"actions" required:"true"`
}

// Batch action statuses.
const (
	ActionOK      = "ok"
	ActionFailed  = "failed"
	ActionSkipped = "skipped"
)

// BatchActionResult is one action's outcome: its posture, and the operation's result or
// error.
type BatchActionResult struct {
	Index   int             `json:"index"`
	Action  string          `json:"action"`
	Status  string          `json:"status"`
	Posture Posture         `json:"posture,omitempty"`
	Result  AnyResult       `json:"result,omitempty"`
	Error   *OperationError `json:"error,omitempty"`
	// PageClass is the class of the page the action left (navigate, click, type, submit)
	// when the session has handoff classes.
	PageClass string `json:"pageClass,omitempty"`
}

// BatchResult is every action's outcome and the batch's posture: ok, or the posture of
// the action that ended it.
type BatchResult struct {
	Egress
	Posture Posture `json:"posture"`
	// Code is what ended the batch early: the failed action's error code, or
	// handoff_required ("" when every action ran).
	Code    Code                `json:"code,omitempty"`
	Actions []BatchActionResult `json:"actions"`
}

// Owner is who a request to a multi-session host comes from: the frame's session and task.
type Owner struct {
	Session string
	Task    string
}

type ownerKey struct{}

// WithOwner puts the frame's session and task on ctx for the handler.
func WithOwner(ctx context.Context, o Owner) context.Context {
	return context.WithValue(ctx, ownerKey{}, o)
}

// OwnerOf is the frame's session and task (zero when the frame named none).
func OwnerOf(ctx context.Context) Owner {
	o, _ := ctx.Value(ownerKey{}).(Owner)
	return o
}

func (r OpenSession) Validate() error {
	if !names.IDShaped(r.Task) {
		return Invalid(OpOpenSession, "request.task", "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
	}
	if len(r.AllowedOrigins) == 0 {
		return Invalid(OpOpenSession, "request.allowedOrigins", "expected at least one origin: narrowing is deny by default")
	}
	if r.IdleTimeoutS < 0 {
		return Invalid(OpOpenSession, "request.idleTimeoutS", "expected a positive number of seconds")
	}
	for i, c := range r.HandoffClasses {
		if !validPageClass(c) {
			return Invalid(OpOpenSession, "request.handoffClasses["+strconv.Itoa(i)+"]", "expected one of %v", PageClasses)
		}
	}
	return ValidateRedaction(OpOpenSession, "request.redaction", r.Redaction)
}

func validPageClass(c string) bool {
	for _, k := range PageClasses {
		if c == k {
			return true
		}
	}
	return false
}

func (r CloseSession) Validate() error {
	if r.Session == "" || r.Task == "" {
		return Invalid(OpCloseSession, "request.session", "expected the session and the task that owns it")
	}
	return nil
}

func (r EndTask) Validate() error {
	if !names.IDShaped(r.Task) {
		return Invalid(OpEndTask, "request.task", "expected 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
	}
	return nil
}

func (r Batch) Validate() error {
	if len(r.Actions) == 0 {
		return Invalid(OpBatch, "request.actions", "expected at least one action")
	}
	if len(r.Actions) > maxBatchActions {
		return Invalid(OpBatch, "request.actions", "more than %d actions", maxBatchActions)
	}
	for i, a := range r.Actions {
		path := "request.actions[" + strconv.Itoa(i) + "]"
		switch a.Action {
		case VerbNavigate:
			if a.URL == "" {
				return Invalid(OpBatch, path+".url", "navigate needs a url")
			}
		case VerbClick, VerbSubmit, VerbDownload:
			if a.Target == nil {
				return Invalid(OpBatch, path+".target", "%s needs a target", a.Action)
			}
		case VerbType:
			if a.Target == nil || a.Text == nil {
				return Invalid(OpBatch, path, "type needs a target and a text")
			}
		case VerbScreenshot, VerbPageText:
		default:
			return Invalid(OpBatch, path+".action", "expected one of %v", BatchVerbs)
		}
	}
	return nil
}

// maxBatchActions bounds one batch.
const maxBatchActions = 100

// AnyResult is an operation's result held as its JSON (a batch action's: the operation
// depends on the verb).
type AnyResult json.RawMessage

// MarshalJSON writes the result as it is.
func (r AnyResult) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps the result as it is.
func (r *AnyResult) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}
