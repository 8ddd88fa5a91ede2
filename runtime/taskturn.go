package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// actNavigate is the act a model uses to go to an address, when the host enables it
// (allow.navigation); the rest are transport's.
const actNavigate = "navigate"

// taskActions are the snapshot-verifiable actions a model may always propose: upload is
// not among them (a model never chooses files from the disk), nor is navigate (the host's
// to enable).
var taskActions = []string{transport.ActClick, transport.ActType, transport.ActSelect, transport.ActCheck, transport.ActUncheck, transport.ActPress}

// handle answers the turn's one tool call; done says the task succeeded.
func (t *taskRun) handle(ctx context.Context, call model.ToolCall, rc *transport.TurnReceipt) (bool, error) {
	switch call.Name {
	case transport.ToolLocate:
		rc.Tool = transport.ToolLocate
		return false, t.locate(call)
	case transport.ToolAct:
		rc.Tool = transport.ToolAct
		return t.act(ctx, call, rc)
	case transport.ToolDone:
		rc.Tool = transport.ToolDone
		return t.done(ctx)
	default:
		rc.Tool = "unknown" // the name is the model's text: not repeated
		return false, refuse(t.mutation, "the model called a tool the task does not offer (locate, act and done are offered)")
	}
}

// offered is the name of a tool the task offers as a receipt records it; any other name is
// the model's text, which a receipt never carries.
func offered(name string) string {
	switch name {
	case transport.ToolLocate, transport.ToolAct, transport.ToolDone, transport.ToolExtract:
		return name
	}
	return "unknown"
}

// locateArgs are locate's arguments.
type locateArgs struct {
	Instruction string `json:"instruction"`
	Action      string `json:"action"`
}

// locate resolves an instruction to one element of the current outline with the
// deterministic matcher; ambiguous or not found is a refusal, which ends the task.
func (t *taskRun) locate(call model.ToolCall) error {
	var a locateArgs
	if err := strictArgs(call.Arguments, &a); err != nil {
		return refuse(t.mutation, "locate's arguments: %s", err)
	}
	if _, ok := transport.RolesFor[a.Action]; !ok || a.Action == transport.ActUpload {
		return refuse(t.mutation, "locate's action must be one of click, type, select, check, uncheck, press")
	}
	if a.Instruction == "" || len(a.Instruction) > budgets.StepInstructionChars {
		return refuse(t.mutation, "locate's instruction must be 1–%d characters", budgets.StepInstructionChars)
	}
	n, rule, err := transport.MatchElement(t.page.Nodes, a.Instruction, a.Action, transport.OpTask)
	if err != nil {
		oe := *transport.AsOperationError(transport.OpTask, err)
		oe.MutationState = t.mutation
		// The instruction is the model's text, which is never output (the matcher's message
		// quotes it: a step's instruction is the author's).
		oe.Message = strings.Replace(oe.Message, strconv.Quote(a.Instruction), "the model's instruction", 1)
		return &oe
	}
	t.answer(call, fmt.Sprintf("located %s: %s %q (%s match)", n.Ref, n.Role, n.Name, rule))
	return nil
}

// actArgs are act's arguments.
type actArgs struct {
	Action string `json:"action"`
	Ref    string `json:"ref,omitempty"`
	Text   string `json:"text,omitempty"`
	Option string `json:"option,omitempty"`
	Key    string `json:"key,omitempty"`
	URL    string `json:"url,omitempty"`
	Dialog string `json:"dialog,omitempty"`
	// AllowanceMs is the action's dispatch, settlement and observation allowance the
	// model may state (taskallowance.go); 0: the floor.
	AllowanceMs int64 `json:"allowanceMs,omitempty"`
}

// act authorises the model's one action, dispatches it, and verifies its settlement by a
// fresh observation; the postcondition is then read once from the page. Every action that
// was dispatched, whatever became of it, is in t.actions.
func (t *taskRun) act(ctx context.Context, call model.ToolCall, rc *transport.TurnReceipt) (bool, error) {
	var a actArgs
	if err := strictArgs(call.Arguments, &a); err != nil {
		return false, refuse(t.mutation, "act's arguments: %s", err)
	}
	a.Ref = modelRef(a.Ref)
	if len(t.actions) >= t.maxActions {
		return false, transport.NewError(transport.OpTask, transport.PhasePolicy, transport.CodeBudgetExceeded, transport.RetryNever, t.mutation,
			"action refused: the task's %d actions are spent", t.maxActions)
	}
	op, node, err := t.authorise(a)
	if err != nil {
		return false, err
	}
	if err := t.actFloor(ctx, a); err != nil {
		return false, err
	}
	before := t.page
	action := proposed(rc.Turn, a, op, node)
	_, release, err := t.admit(ctx, admitAction, inFlight(a, node), rc.Turn)
	if err != nil {
		return false, err
	}
	defer release(nil) // the action is in flight until it is reconciled below
	start := time.Now()
	res, err := t.r.call(ctx, op, t.octx)
	rc.ActionMs = time.Since(start).Milliseconds()
	if err != nil {
		if oe := transport.AsOperationError(transport.OpTask, err); oe.MutationState != transport.NotAttempted {
			t.mutation = transport.Unknown
			action.Outcome = string(oe.Code)
			t.record(action, a)
		}
		// The task's state, not this call's: an action dispatched on an earlier turn has
		// changed the page even when this one never reached it.
		return false, asTask(err, t.mutation)
	}
	t.mutation = transport.Unknown // dispatched; verified below
	t.keep(res)
	verified := false
	if got, ok := res.(*transport.ActResult); ok {
		action.Receipt, verified = got.Receipt, got.MutationState == transport.Verified
	}
	if err := t.settle(ctx); err != nil {
		action.Outcome = string(transport.AsOperationError(transport.OpTask, err).Code)
		t.record(action, a)
		return false, err
	}
	rc.ObserveMs, t.observeMs = t.observeMs, 0
	action.Diff = outlineDiff(before, t.page)
	changed := !unchangedAfter(before, t.page, action.Diff)
	if node != nil {
		changed = t.repeats.note(before.DocumentID, node, rc.Turn, a, verified, changed)
	}
	action.Outcome = transport.ActionUnchanged
	if changed {
		action.Outcome = transport.ActionChanged
	}
	t.record(action, a)
	t.answer(call, actedText(a, node, action.Diff, changed))
	if t.req.Postcondition == nil {
		// A one-action task (an act in words): its action was dispatched and the page was
		// observed after it settled.
		return true, nil
	}
	return t.holds(ctx, transport.WaitNone)
}

// record adds a dispatched action to the task's accounting, with the variables it used.
func (t *taskRun) record(action transport.TaskAction, a actArgs) {
	t.account(&action, a.Option)
	t.actions = append(t.actions, action)
	t.host.actionEvent(action)
}

// proposed is the accounting of the action op about to be dispatched, as the outline named
// its element; a result's receipt replaces it.
func proposed(turn int, a actArgs, op transport.Operation, node *transport.OutlineNode) transport.TaskAction {
	if nav, ok := op.(*transport.Navigate); ok {
		return transport.TaskAction{Turn: turn, Receipt: transport.Receipt{Action: actNavigate}, URL: nav.URL}
	}
	action := transport.TaskAction{Turn: turn, Receipt: transport.Receipt{Action: a.Action, Ref: node.Ref, Role: node.Role, Name: node.Name}}
	if a.Action == transport.ActType {
		action.Text = a.Text // in process only: TaskAction.Text is never encoded
	}
	return action
}

// authorise turns the model's act into the one call it may make, or refuses it
// before anything is dispatched: what the host did not enable (a navigate, a dialog's
// acceptance), an element that is not in the current outline, an action the task does not
// offer, text holding a secret, a repeat on an element an earlier action of the task left
// unchanged, and a navigation, direct or by a link, to an origin the policy in force
// refuses.
func (t *taskRun) authorise(a actArgs) (transport.Operation, *transport.OutlineNode, error) {
	pol, err := t.r.effective(transport.OpTask, t.octx)
	if err != nil {
		return nil, nil, err
	}
	if a.Action == actNavigate {
		if !t.allow.Navigation {
			return nil, nil, refuse(t.mutation, "act navigate refused: the task's host did not enable navigation (request.allow.navigation)")
		}
		if a.Ref != "" || a.Text != "" || a.Option != "" || a.Key != "" || a.Dialog != "" || a.URL == "" {
			return nil, nil, refuse(t.mutation, "act navigate takes a url and nothing else")
		}
		to, err := t.resolve(a.URL)
		if err != nil {
			return nil, nil, refuse(t.mutation, "act navigate's url is not an address")
		}
		if _, err := pol.CheckURL(to); err != nil {
			return nil, nil, transport.PolicyRefusal(transport.OpTask, "", err)
		}
		return &transport.Navigate{Tab: t.tab, URL: to}, nil, nil
	}
	known := false
	for _, x := range taskActions {
		known = known || x == a.Action
	}
	if !known || a.URL != "" {
		return nil, nil, refuse(t.mutation, "act's action must be one of %s (url only with navigate)", t.offeredActions())
	}
	if a.Dialog != "" && !t.allow.Dialogs {
		return nil, nil, refuse(t.mutation, "act's dialog refused: the task's host did not enable accepting dialogs (request.allow.dialogs)")
	}
	node := findRef(t.page.Nodes, a.Ref)
	if a.Ref == "" || node == nil {
		return nil, nil, refuse(t.mutation, "act names ref %q, which is not in the page the model was shown", clip(a.Ref, 16))
	}
	if by := t.repeats.closedBy(t.page.DocumentID, node); by > 0 {
		// Named by ref and turn only: the element's name is the page's text (the accounting
		// names it).
		return nil, nil, refuse(t.mutation, "act %s on %s refused: the action on turn %d changed nothing observable on this element (by ref, or by role and name) in this document; a task never repeats an action that had no effect", a.Action, node.Ref, by)
	}
	act := &transport.Act{Tab: t.tab, Action: a.Action, Target: transport.Target{Ref: a.Ref}, Option: a.Option, Key: a.Key, Dialog: a.Dialog}
	if a.Action == transport.ActType || a.Text != "" {
		act.Text = transport.Literal(a.Text)
	}
	if err := transport.Validate(act); err != nil {
		return nil, nil, refuse(t.mutation, "act: %s", transport.AsOperationError(transport.OpTask, err).Message)
	}
	for _, s := range []string{a.Text, a.Option, a.Key} {
		if t.r.secrets.Scrub(s) != s {
			return nil, nil, refuse(t.mutation, "act's text holds a secret's value; a task never types one")
		}
	}
	if act.Text != nil {
		// Only now, checked as the model wrote it: the variables' values go in (an {"env"}
		// one's marks the text secret, so the field is masked and the value scrubbed).
		act.Text = t.typed(a.Text)
	}
	if node.Role == "link" && node.Href != "" {
		to, err := t.resolve(node.Href)
		if err == nil {
			_, err = pol.CheckURL(to)
		}
		if err != nil {
			return nil, nil, transport.PolicyRefusal(transport.OpTask, "", err)
		}
	}
	return act, node, nil
}

// done is the model saying the goal is reached: the postcondition decides, read from the page
// (bounded: a page still settling gets the read wait).
func (t *taskRun) done(ctx context.Context) (bool, error) {
	if t.req.Postcondition == nil {
		return false, refuse(t.mutation, "the model finished without acting; a one-action task succeeds only by its action")
	}
	return t.holds(ctx, transport.WaitBounded)
}

// holds reads the postcondition: true when it holds. After an action (wait none) a
// postcondition that does not hold yet lets the task go on; when the model says it is done
// (wait bounded) it is postcondition_failed.
func (t *taskRun) holds(ctx context.Context, wait transport.WaitMode) (bool, error) {
	p := *t.req.Postcondition
	as := p.Assertion(wait)
	as.Tab = t.tab
	res, err := t.r.call(withoutEvidence(ctx), &as, t.octx)
	if err == nil {
		t.keep(res)
		return true, nil
	}
	if !errors.Is(err, transport.ErrCode(transport.CodeAssertionFailed)) {
		return false, asTask(err, t.mutation)
	}
	if wait == transport.WaitNone {
		return false, nil
	}
	what := "text " + strconv.Quote(p.Value) + " is not on the page"
	if p.Kind != transport.PostText {
		what = p.Kind + " is not " + strconv.Quote(p.Value)
	}
	return false, transport.NewError(transport.OpTask, transport.PhaseVerify, transport.CodePostconditionFailed, transport.RetryUnsafe, t.mutation,
		"the model said the goal was reached, but %s (read from the page within the read wait, %s)", what, budgets.ReadWait().Default)
}

// observe takes a fresh observation of the task's tab, refused when less than the
// observation floor is left (a floor, not a wait: it returns as soon as the page is read).
func (t *taskRun) observe(ctx context.Context) error {
	if err := t.floor(ctx, "an observation"); err != nil {
		return err
	}
	start := time.Now()
	res, err := t.r.call(ctx, &transport.Observe{Tab: t.tab, MaxNodes: budgets.ModelPageNodes}, t.octx)
	t.observeMs += time.Since(start).Milliseconds()
	if err != nil {
		return asTask(err, t.mutation)
	}
	t.keep(res)
	t.page = res.(*transport.ObserveResult)
	t.tab = t.page.Tab
	return nil
}

// settle is the settlement after an action: a fresh observation, then looks
// budgets.TaskSettlePoll apart until two in a row agree (document, URL, title, outline),
// within budgets.TaskSettle — mutation-quiet, not a fixed wait: a page that is quiet at once
// costs one extra look. Settling stops early, keeping the latest look, rather than start a
// look with less than the observation floor left.
func (t *taskRun) settle(ctx context.Context) error {
	if err := t.observe(ctx); err != nil {
		return err
	}
	until := time.Now().Add(budgets.TaskSettle)
	for time.Now().Before(until) {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(budgets.TaskSettlePoll):
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budgets.Observation().Floor {
			return nil
		}
		prev := t.page
		if err := t.observe(ctx); err != nil {
			return err
		}
		if p := t.page; p.DocumentID == prev.DocumentID && p.URL == prev.URL && p.Title == prev.Title && p.Text == prev.Text {
			return nil
		}
	}
	return nil
}

// floor refuses, before anything is dispatched, work that would get less than the
// observation floor of what is left of the task.
func (t *taskRun) floor(ctx context.Context, what string) error {
	return observationFloor(ctx, transport.OpTask, t.mutation, what)
}

// observationFloor refuses (budget_exceeded, before anything is dispatched) work of op that
// would get less than the observation floor of what is left of ctx: a task's or an
// extract's observation, a task's action. mut is what the page has seen of op so far.
func observationFloor(ctx context.Context, op string, mut transport.MutationState, what string) error {
	dl, ok := ctx.Deadline()
	if left := time.Until(dl); ok && left < budgets.Observation().Floor {
		return transport.NewError(op, transport.PhaseDispatch, transport.CodeBudgetExceeded, transport.RetryNever, mut,
			"%s needs at least %s and the %s has %s left", what, budgets.Observation().Floor, op, left.Round(time.Millisecond))
	}
	return nil
}

// keep collects what a call reported beside its result: dialogs answered and requests
// refused.
func (t *taskRun) keep(res transport.Result) {
	t.dialogs = append(t.dialogs, transport.DialogsOf(res)...)
	t.blocked = append(t.blocked, transport.BlockedOf(res)...)
}

// answer records the turn's call and what it returned to the model.
func (t *taskRun) answer(call model.ToolCall, text string) {
	t.history = append(t.history, model.Message{Role: model.RoleAssistant, Call: &call}, model.Message{Role: model.RoleTool, ResultOf: call.ID, Text: text})
}

// resolve makes an address absolute against the current page's.
func (t *taskRun) resolve(raw string) (string, error) {
	base, err := url.Parse(t.page.URL)
	if err != nil {
		return "", err
	}
	u, err := base.Parse(raw)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// strictArgs decodes a tool call's arguments, refusing unknown fields.
func strictArgs(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New("expected the documented JSON object")
	}
	return nil
}

// refuse is the task's refusal of something the model proposed (task_refused).
func refuse(mut transport.MutationState, format string, args ...any) error {
	return transport.NewError(transport.OpTask, transport.PhasePolicy, transport.CodeTaskRefused, transport.RetryNever, mut, format, args...)
}

// asTask names a call's failure as the task's; mut, when set, is what the page may have seen
// of the task so far.
func asTask(err error, mut transport.MutationState) error {
	oe := *transport.AsOperationError(transport.OpTask, err)
	oe.Operation = transport.OpTask
	if mut != "" && mut != transport.NotAttempted {
		oe.MutationState, oe.Retry = mut, transport.RetryUnsafe
	}
	return transport.KeepEvidence(&oe, err)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
