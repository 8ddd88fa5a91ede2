package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = answers((*Runtime).runTask)

// runTask answers task (docs/models.md "task"): a bounded loop in which the model proposes
// and the runtime decides. Each turn the model sees the goal and a bounded, secret-scrubbed
// outline and calls one tool. locate is answered by the deterministic matcher (ambiguous is
// refused, never guessed); act is authorised (the origin of a navigation it would cause, no
// secret in its text) before it is dispatched, one action per turn, and verified after by a
// fresh observation and its diff from the one before; the postcondition is read from the
// page after every action and when the model says it is done. Whatever is refused ends the
// task: nothing is retried and nothing continues after a refusal. Every observe, act and
// assert goes through call, under the task's context, so the origin policy, tab handles and
// scrubbing are exactly an ordinary call's.
func (r *Runtime) runTask(ctx context.Context, req *transport.Task, octx *transport.OperationContext) (transport.Result, error) {
	t, err := r.newTaskRun(req, octx)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, transport.TaskBudget(req))
	defer cancel()
	return t.outcome(t.run(ctx))
}

// newTaskRun checks what a task may be asked before any model call and makes its state.
func (r *Runtime) newTaskRun(req *transport.Task, octx *transport.OperationContext) (*taskRun, error) {
	if r.model == nil {
		return nil, modelRequired(transport.OpTask)
	}
	// Variables first: an {"env"} value is a secret from here on, so the checks below and
	// every scrub know it before the model is asked anything.
	vars, err := r.taskVariables(req)
	if err != nil {
		return nil, err
	}
	if r.secrets.Scrub(req.Goal) != req.Goal {
		return nil, transport.Invalid(transport.OpTask, "request.goal", "the goal holds a secret's value; a model never sees one")
	}
	t := &taskRun{r: r, req: req, octx: octx, tab: req.Tab, maxTurns: req.MaxTurns, maxActions: req.MaxActions, vars: vars}
	if req.Allow != nil {
		t.allow = *req.Allow
	}
	if t.combined, err = newCombined(req); err != nil {
		return nil, err
	}
	if t.maxTurns == 0 {
		t.maxTurns = budgets.TaskTurns
	}
	if t.maxActions == 0 {
		t.maxActions = budgets.TaskActions
	}
	return t, nil
}

// outcome is what the task's caller gets for what its loop returned: the result scrubbed,
// or the failure with the accounting so far.
func (t *taskRun) outcome(res *transport.TaskResult, err error) (transport.Result, error) {
	if err != nil {
		return nil, t.failed(err)
	}
	// The actions name elements by the page's text: scrubbed like any result (call scrubs the
	// worker's results only, and the task's is the runtime's own).
	clean, err := t.r.scrubResult(t.req, res)
	if err != nil {
		return nil, err
	}
	// What a type typed is not encoded, so the scrub's round trip dropped it; it held no
	// secret (authorise refused one before dispatch), and it stays in this process.
	if c, ok := clean.(*transport.TaskResult); ok && len(c.Actions) == len(res.Actions) {
		for i := range c.Actions {
			c.Actions[i].Text = res.Actions[i].Text
		}
	}
	return clean, nil
}

// modelRequired refuses an operation that needs a model in a session that has none.
func modelRequired(op string) error {
	return transport.NewError(op, transport.PhaseValidate, transport.CodeModelRequired, transport.RetryNever, transport.NotAttempted,
		"%s needs a model and this session has none; configure one with --model or a \"model\" in the scenario or run config (docs/models.md)", op)
}

// taskRun is one task's state.
type taskRun struct {
	r                    *Runtime
	req                  *transport.Task
	octx                 *transport.OperationContext
	tab                  string // the tab the task works on: the request's, else the one first observed
	maxTurns, maxActions int
	allow                transport.TaskAllow // what the host enabled beyond the snapshot-verifiable actions
	vars                 map[string]taskVar  // the request's variables, resolved (taskvars.go)
	combined             *combinedTask       // a combined task's extraction (taskcombined.go); nil for a plain task
	// host is the task's owner when a host began it (beginTask): it admits every model call
	// and action (taskadmit.go) and hears every receipt. nil for a blocking task.
	host *hostedTask

	page     *transport.ObserveResult // the latest observation
	history  []model.Message          // the tool calls so far and what they returned
	turns    []transport.TurnReceipt
	actions  []transport.TaskAction // every action dispatched: the accounting
	repeats  repeatGuard
	dialogs  []transport.Dialog
	blocked  []transport.Blocked
	mutation transport.MutationState // not_attempted until an action was dispatched
	// observeMs is the time of the observation the next turn's receipt is charged for.
	observeMs int64
}

func (t *taskRun) run(ctx context.Context) (*transport.TaskResult, error) {
	t.mutation = transport.NotAttempted
	if err := t.observe(ctx); err != nil {
		return nil, err
	}
	if t.req.Postcondition != nil {
		// Already holding: the task is done before any model call.
		if ok, err := t.holds(ctx, transport.WaitNone); err != nil || (ok && t.held()) {
			return t.resultOr(err)
		}
	}
	for turn := 1; ; turn++ {
		if turn > t.maxTurns {
			t.turnEnded(transport.TurnReceipt{Turn: turn, Outcome: string(transport.CodeBudgetExceeded)})
			return nil, transport.NewError(transport.OpTask, transport.PhasePolicy, transport.CodeBudgetExceeded, transport.RetryNever, t.mutation,
				"turn %d refused: the task's %d turns are spent and its postcondition has not held", turn, t.maxTurns)
		}
		rc := transport.TurnReceipt{Turn: turn, ObserveMs: t.observeMs}
		t.observeMs = 0
		call, err := t.ask(ctx, &rc)
		if err != nil {
			t.turnEnded(ended(rc, err))
			return nil, err
		}
		var done bool
		if t.combined != nil {
			done, err = t.handleCombined(ctx, call, &rc)
		} else {
			done, err = t.handle(ctx, call, &rc)
		}
		t.turnEnded(ended(rc, err))
		if err != nil {
			return nil, err
		}
		if done {
			return t.result(), nil
		}
	}
}

// ask makes one model call and returns its one tool call: no call at all is the model's
// "done"; more than one is refused (one tool per turn, one action per act turn).
func (t *taskRun) ask(ctx context.Context, rc *transport.TurnReceipt) (model.ToolCall, error) {
	mctx, release, err := t.admit(ctx, admitModel, "", rc.Turn)
	if err != nil {
		return model.ToolCall{}, err
	}
	start := time.Now()
	reply, err := t.r.model.Complete(mctx, t.request())
	err = release(err)
	rc.ModelMs = time.Since(start).Milliseconds()
	rc.InputTokens, rc.OutputTokens = reply.InputTokens, reply.OutputTokens
	if err != nil {
		return model.ToolCall{}, asTask(err, t.mutation)
	}
	switch len(reply.Calls) {
	case 0:
		return model.ToolCall{Name: transport.ToolDone, ID: "none", Arguments: []byte("{}")}, nil
	case 1:
		c := reply.Calls[0]
		if c.ID == "" {
			c.ID = "call_" + strconv.Itoa(rc.Turn)
		}
		return c, nil
	default:
		rc.Tool = offered(reply.Calls[0].Name)
		return model.ToolCall{}, refuse(t.mutation, "the model made %d tool calls in one turn; a turn makes exactly one", len(reply.Calls))
	}
}

func (t *taskRun) resultOr(err error) (*transport.TaskResult, error) {
	if err != nil {
		return nil, err
	}
	return t.result(), nil
}

// result is the task's success.
func (t *taskRun) result() *transport.TaskResult {
	res := &transport.TaskResult{Tab: t.tab, Turns: t.turns, Actions: t.actions, Postcondition: t.req.Postcondition, MutationState: transport.Verified}
	if res.Actions == nil {
		res.Actions = []transport.TaskAction{}
	}
	res.Dialogs, res.Blocked = t.dialogs, t.blocked
	if c := t.combined; c != nil {
		res.Data, res.Citations = transport.JSONValue(c.data), c.cites
	}
	return res
}

// failed makes err the task's failure: named task, with the receipts so far, the dialogs and
// blocked requests the task's calls saw, and any failure evidence a call kept.
func (t *taskRun) failed(err error) error {
	oe := *transport.AsOperationError(transport.OpTask, err)
	oe.Operation = transport.OpTask
	oe.Message = t.r.secrets.Scrub(oe.Message)
	oe.Turns = t.turns
	oe.Actions = t.scrubbedActions()
	oe.Dialogs = append(append([]transport.Dialog(nil), t.dialogs...), oe.Dialogs...)
	oe.Blocked = append(append([]transport.Blocked(nil), t.blocked...), oe.Blocked...)
	var kept *transport.EvidencedError
	if !errors.As(err, &kept) && oe.Phase != transport.PhaseValidate {
		// A refusal of the task's own (not a call's, which kept its evidence) shows the page
		// as the task left it.
		return t.r.withFailureEvidence(t.evidenceOp(), &oe)
	}
	return transport.KeepEvidence(&oe, err)
}

// scrubbedActions are the task's actions as its error carries them: scrubbed of every
// secret like a result (they name elements by the page's text), and, encoded and decoded,
// without what a type typed.
func (t *taskRun) scrubbedActions() []transport.TaskAction {
	if len(t.actions) == 0 {
		return nil
	}
	raw, err := json.Marshal(t.actions)
	var out []transport.TaskAction
	if err == nil {
		err = json.Unmarshal(t.r.secrets.ScrubJSON(raw), &out)
	}
	if err != nil {
		// Unreachable for these plain values; should it happen, each action keeps its turn,
		// kind and outcome and loses the page's text rather than risk a secret.
		out = make([]transport.TaskAction, len(t.actions))
		for i, a := range t.actions {
			out[i] = transport.TaskAction{Turn: a.Turn, Receipt: transport.Receipt{Action: a.Receipt.Action}, Outcome: a.Outcome, Diff: a.Diff}
		}
	}
	return out
}

// evidenceOp is the task as its failure evidence asks for it: on the tab the task worked
// on, named as the worker knows it (the capture goes to the worker directly, past call's
// translation of handles, and the request's own tab is a handle or "").
func (t *taskRun) evidenceOp() transport.Operation {
	op := *t.req
	op.Tab = t.tab
	if op.Tab != "" && t.r.toTargets(transport.OpTask, &op) != nil {
		op.Tab = "" // a tab the session no longer knows: the selected one
	}
	return &op
}

// ended is a turn's receipt with its outcome: ok, or the code that ended the task.
func ended(rc transport.TurnReceipt, err error) transport.TurnReceipt {
	rc.Outcome = transport.OutcomeOK
	if err != nil {
		rc.Outcome = string(transport.AsOperationError(transport.OpTask, err).Code)
	}
	return rc
}

// noEvidenceKey marks a call whose failure is not the operation's: a task's read of its
// postcondition after an action, which may not hold yet. No failure evidence is captured for
// it (the task captures its own if it fails).
type noEvidenceKey struct{}

func withoutEvidence(ctx context.Context) context.Context {
	return context.WithValue(ctx, noEvidenceKey{}, true)
}

func noEvidence(ctx context.Context) bool { return ctx.Value(noEvidenceKey{}) != nil }
