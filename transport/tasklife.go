package transport

import (
	"context"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/names"
)

// A task a host owns (seed 001's host contract; docs/models.md "Hosted tasks"): beginTask
// starts the bounded loop of task in the background and answers at once with its id;
// while it runs the server writes content-free event frames (EventFrame); refreshTask
// renews the host's lease and facts; cancelTask stops it for good; finishTask returns the
// sealed accounting once nothing is in flight. The runtime answers all four (OpSpec.Runtime).
const (
	OpBeginTask   = "beginTask"
	OpRefreshTask = "refreshTask"
	OpCancelTask  = "cancelTask"
	OpFinishTask  = "finishTask"
)

// BeginTask is a task's request (every field of task, at the top level) and the host's
// lease: it reserves no model budget and answers before the first model call.
type BeginTask struct {
	op[BeginTask, BeginTaskResult]
	Task
	// LeaseMs opts into freshness: from beginTask, and from each refreshTask after it, the
	// task admits model calls and actions for this long (at most budgets.TaskLease, 30 s);
	// past it they are refused with task_stale. 0: no lease (the task runs as task does).
	LeaseMs int `json:"leaseMs,omitempty"`
}

// BeginTaskResult names the task; its events and the other lifecycle operations use it.
type BeginTaskResult struct {
	Egress
	Task string `json:"task"`
}

// TaskFacts are what the host independently knows about the task's page, sampled before
// every model call and every action: an opaque label of the account it works as, the
// origin the page must be on, and the document it must be in (an observation's
// documentId). Each empty field is not checked.
type TaskFacts struct {
	Account  string `json:"account,omitempty"`
	Origin   string `json:"origin,omitempty"`
	Document string `json:"document,omitempty"`
	// SampledAtMs is when the host sampled these facts (Unix milliseconds, 0: not said).
	// A sample from the future (past budgets.TaskSampleSkew), older than the lease, or not
	// newer than the previous refresh's (regressing, or replayed/rewritten) stops new work
	// with task_stale, as a changed fact does.
	SampledAtMs int64 `json:"sampledAtMs,omitempty"`
}

// RefreshTask renews the task's lease and gives the facts it is checked against. A fact
// that differs from the page, or an account label that differs from the previous
// refresh's, stops new work with task_stale; so does a refresh that comes too late.
type RefreshTask struct {
	op[RefreshTask, RefreshTaskResult]
	Task  string    `json:"task" required:"true"`
	Facts TaskFacts `json:"facts"`
}

// RefreshTaskResult says how long the renewed lease lasts.
type RefreshTaskResult struct {
	Egress
	Task    string `json:"task"`
	LeaseMs int64  `json:"leaseMs"`
}

// CancelTask stops the task for good: no model call and no action is admitted after it; a
// model call in flight is cancelled, an action in flight is reconciled.
type CancelTask struct {
	op[CancelTask, CancelTaskResult]
	Task string `json:"task" required:"true"`
}

// CancelTaskResult says whether the cancel stopped the task (false: it had already ended).
type CancelTaskResult struct {
	Egress
	Task      string `json:"task"`
	Cancelled bool   `json:"cancelled"`
}

// FinishTask returns the sealed accounting of a task with nothing in flight; while a model
// call or an action is, it is refused with task_busy (which is not a permission to retry
// anything). A finished task's id is forgotten.
type FinishTask struct {
	op[FinishTask, FinishTaskResult]
	Task string `json:"task" required:"true"`
}

// Settlements: complete (the postcondition held, read from the page) or incomplete (the
// task ended otherwise: refused, failed, cancelled, stopped or stale).
const (
	SettlementComplete   = "complete"
	SettlementIncomplete = "incomplete"
)

// FinishTaskResult is the sealed accounting: every model turn's receipt (a failed or
// cancelled call included), every dispatched action with its outcome, and the result or
// the error.
type FinishTaskResult struct {
	Egress
	Task       string          `json:"task"`
	Settlement string          `json:"settlement"`
	Turns      []TurnReceipt   `json:"turns"`
	Actions    []TaskAction    `json:"actions"`
	Result     *TaskResult     `json:"result,omitempty"`
	Error      *OperationError `json:"error,omitempty"`
	// StoppedBy is why an incomplete task was stopped before it ended on its own ("" when
	// it was not): one of the Stop… reasons.
	StoppedBy string `json:"stoppedBy,omitempty"`
}

// Why a hosted task was stopped (FinishTaskResult.StoppedBy, a settled event's). Each
// stops it as a cancel does; none revokes the session from its task.
const (
	StopHost       = "host"       // cancelTask (code cancelled)
	StopPerson     = "person"     // a person attached to the session's browser (cancelled)
	StopHandoff    = "handoff"    // the page is of a handoff class (handoff_required)
	StopNavigation = "navigation" // the tab left its document without the task (cancelled)
	StopStale      = "stale"      // the lease or a fact went stale (task_stale)
	StopSession    = "session"    // the session closed (session_ended)
)

// Event kinds: a model turn ended, a dispatched action was accounted, the task settled.
const (
	EventTurn    = "turn"
	EventAction  = "action"
	EventSettled = "settled"
)

// TaskEvent is what an event frame carries: content-free, like the receipts it holds.
type TaskEvent struct {
	Task   string       `json:"task"`
	Kind   string       `json:"kind"`
	Turn   *TurnReceipt `json:"turn,omitempty"`
	Action *TaskAction  `json:"action,omitempty"`
	// Settlement and Code are the settled event's: complete or incomplete, and the code that
	// ended an incomplete task.
	Settlement string `json:"settlement,omitempty"`
	Code       Code   `json:"code,omitempty"`
	StoppedBy  string `json:"stoppedBy,omitempty"`
}

// EventFrame: {"v":1,"event":{"task":"k1","kind":"turn","turn":{…}}}, written by a server
// between answers; it answers no request. A parent that ignores frames it does not know
// loses nothing else.
type EventFrame struct {
	V     int       `json:"v" required:"true"`
	Event TaskEvent `json:"event" required:"true"`
}

// Events is where a request's task events go (the server's event frames); nil drops them.
type Events func(TaskEvent)

type eventsKey struct{}

// WithEvents gives the handler of a request somewhere to write task events, for as long
// as the connection lasts (a hosted task outlives the request that began it).
func WithEvents(ctx context.Context, e Events) context.Context {
	return context.WithValue(ctx, eventsKey{}, e)
}

// EventsOf is the request's event sink (nil: none).
func EventsOf(ctx context.Context) Events {
	e, _ := ctx.Value(eventsKey{}).(Events)
	return e
}

func (r BeginTask) Validate() error {
	if err := r.Task.Validate(); err != nil {
		oe := *AsOperationError(OpBeginTask, err)
		oe.Operation = OpBeginTask
		return &oe
	}
	if r.LeaseMs < 0 || r.LeaseMs > int(budgets.TaskLease.Milliseconds()) {
		return Invalid(OpBeginTask, "request.leaseMs", "expected 0 (no lease) to %d milliseconds", budgets.TaskLease.Milliseconds())
	}
	return nil
}

func (r RefreshTask) Validate() error { return checkTaskID(OpRefreshTask, r.Task) }
func (r CancelTask) Validate() error  { return checkTaskID(OpCancelTask, r.Task) }
func (r FinishTask) Validate() error  { return checkTaskID(OpFinishTask, r.Task) }

func checkTaskID(op, id string) error {
	if !names.IDShaped(id) {
		return Invalid(op, "request.task", "expected the id beginTask answered with")
	}
	return nil
}

func (r BeginTask) taskTimeoutMs() int { return r.TimeoutMs }
