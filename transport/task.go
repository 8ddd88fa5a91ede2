package transport

import (
	"encoding/json"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// Operations a model serves (docs/models.md). The runtime answers them itself: it runs a
// bounded loop in which a model proposes and the runtime decides, composing the worker's own
// observe, act and assert. A session without a model refuses both with model_required; a
// worker refuses them (OpSpec.Runtime).
const (
	OpTask    = "task"
	OpExtract = "extract"
)

// Postcondition is what must hold, read from the page, for a step or a task to succeed:
// text on the page, or the exact url, origin or title.
type Postcondition struct {
	Kind  string `json:"kind" required:"true"` // text | url | origin | title
	Value string `json:"value" required:"true"`
}

// Postcondition kinds.
const (
	PostText   = "text"
	PostURL    = "url"
	PostOrigin = "origin"
	PostTitle  = "title"
)

// PostconditionKinds lists the postcondition kinds, in documentation order.
var PostconditionKinds = []string{PostText, PostURL, PostOrigin, PostTitle}

// Assertion is the read-only check that verifies p: wait bounded (a settling page gets the
// read-wait budget) or none (one read).
func (p Postcondition) Assertion(wait WaitMode) Assert {
	kind := p.Kind
	if kind == PostText {
		kind = AssertTextContains
	}
	a := Assert{Kind: kind, Value: p.Value, ValueMatch: Is(p.Value), Wait: wait}
	if wait != WaitNone {
		// A postcondition keeps the 3 s read wait its task and step document, not the
		// expect budget a bare assert waits within.
		a.TimeoutMs = int(budgets.ReadWait().Default.Milliseconds())
	}
	return a
}

// Task is a bounded semantic task: each turn a model sees the goal and a bounded,
// secret-scrubbed outline of the tab and calls one tool (locate, act or done); the runtime
// resolves locate with the deterministic matcher, authorises and dispatches act (one action
// per act turn), verifies it by a fresh observation and diff, and checks the postcondition
// from the page. A refusal ends the task; nothing is retried.
type Task struct {
	op[Task, TaskResult]
	Tab  string `json:"tab,omitempty" handle:"tab"`
	Goal string `json:"goal" required:"true"`
	// Postcondition decides success. Only a one-action task (maxActions 1, an act in words)
	// may leave it out: it then succeeds when its one action was dispatched and verified.
	Postcondition *Postcondition `json:"postcondition,omitempty"`
	MaxTurns      int            `json:"maxTurns,omitempty"`   // 0: budgets.TaskTurns; at most that
	MaxActions    int            `json:"maxActions,omitempty"` // 0: budgets.TaskActions; at most that
	// TimeoutMs bounds the whole task (0: the task budget's 30 s; at most 30 s).
	TimeoutMs int `json:"timeoutMs,omitempty"`
	// Allow is what the host enables beyond the snapshot-verifiable actions (click, type,
	// select, check, uncheck, press); nil enables nothing.
	Allow *TaskAllow `json:"allow,omitempty"`
	// Variables are the values the goal names as %name% (name: a letter or _, then letters, digits
	// or _; at most 64). A literal's value is shown to the model in place of its placeholder; an
	// {"env":"NAME"} value never is: the model sees %name% and types it as its placeholder, and the
	// runtime puts the value in at dispatch.
	Variables map[string]*Text `json:"variables,omitempty"`
	// Extract makes the task a combined one (seed 001): it acts until its postcondition holds
	// and then extracts, all within the task's one budget (turns, actions, timeout). The model
	// is offered exactly locate, act and extract; act is refused once the postcondition holds
	// and extract before it does. The result then carries data and citations, checked as an
	// extract's are.
	Extract *TaskExtract `json:"extract,omitempty"`
}

// TaskExtract is what a combined task extracts once its postcondition holds: data fitting
// Schema (as extract's schema), each value citing the outline line or ref it came from. The
// model may narrow what it reads, once, to the subtree of one ref it was shown (the extract
// tool's scope argument).
type TaskExtract struct {
	Schema JSONValue `json:"schema" required:"true"`
}

// TaskAllow enables, each on its own, what a task refuses by default because an outline
// cannot verify it (seed 001: navigation and dialog evidence need the host's own adapters).
// A model is offered only what is enabled, and whatever it proposes beyond that is refused
// before dispatch. There is no scroll to enable: a task has no scroll action at all.
type TaskAllow struct {
	// Navigation enables act navigate (to a url, under the origin policy in force). A click
	// on a link is a click either way: the policy checks its destination.
	Navigation bool `json:"navigation,omitempty"`
	// Dialogs enables act's dialog "accept": the JavaScript dialogs the action opens are
	// accepted (a prompt with its default text) instead of dismissed.
	Dialogs bool `json:"dialogs,omitempty"`
}

// TaskResult is a task that succeeded: what it did and what each turn cost, never the page's
// text, the prompt, what the model wrote or what it typed.
type TaskResult struct {
	Egress
	Tab   string        `json:"tab" handle:"tab"`
	Turns []TurnReceipt `json:"turns"`
	// Actions are the actions dispatched, in order (at most maxActions), each with the role
	// and accessible name of its element and its outcome: the task's accounting, which a
	// failed task's error carries too (OperationError.Actions).
	Actions       []TaskAction   `json:"actions"`
	Postcondition *Postcondition `json:"postcondition,omitempty"`
	MutationState MutationState  `json:"mutationState"` // verified: the page state decided
	// Data and Citations are a combined task's extraction (request.extract): data that
	// satisfied the schema and the outline ref or line id each scalar was read from.
	Data      JSONValue         `json:"data,omitempty"`
	Citations map[string]string `json:"citations,omitempty"`
}

// TaskAction is one action a task dispatched: content-free but for the element's role and
// name (and a select's option label or a press's key), never the text a type typed.
type TaskAction struct {
	Turn int `json:"turn"`
	// Receipt names the element by ref, role and accessible name: an exported scenario
	// replays the action by role and name, without a model.
	Receipt Receipt `json:"receipt"`
	// URL is where a navigate action went (Receipt.Action "navigate").
	URL string `json:"url,omitempty"`
	// Outcome is ActionChanged or ActionUnchanged (what the observation after the action
	// showed), or the code the action failed with once dispatched.
	Outcome string `json:"outcome"`
	// Diff counts what changed in the outline between the observations either side of it.
	Diff OutlineDiff `json:"diff"`
	// Text is what a type action typed as the model wrote it, with the task's variables as
	// their placeholders (%password%), in this process only (never encoded, so never in an
	// output, a report or a history): an act in words exports it for its replay. A text
	// exactly equal to a literal variable's value is its placeholder here, and the value of
	// an {"env"} variable is never in it (a task refuses model text holding a secret).
	Text string `json:"-"`
	// Variables are the task variables whose value the action used, sorted: typed through
	// its placeholder, typed as the exact value of a literal one, or a literal one's value
	// in the element's accessible name, the selected option or the navigate URL (so an
	// exporter knows a recording of the action depends on it).
	Variables []string `json:"variables,omitempty"`
}

// Action outcomes besides a code. An action is unchanged when the settled observation after
// it shows the page as the one before it did: the same document, URL and title and the
// same outline lines (docs/models.md "Repeats").
const (
	ActionChanged   = "changed"
	ActionUnchanged = "unchanged"
)

// OutlineDiff counts outline lines the action added and removed (a changed line is one of
// each), and whether the document changed.
type OutlineDiff struct {
	Added          int  `json:"added"`
	Removed        int  `json:"removed"`
	DocumentChange bool `json:"documentChange,omitempty"`
}

// TurnReceipt is what one model turn cost and how it ended: content-free (no page text, no
// prompt, no model output).
type TurnReceipt struct {
	Turn int `json:"turn"` // 1-based
	// Tool is what the model called: locate, act, done, extract, or "" for none.
	Tool string `json:"tool"`
	// Outcome is "ok", or the code that ended the task on this turn.
	Outcome      string `json:"outcome"`
	InputTokens  int    `json:"inputTokens"`
	OutputTokens int    `json:"outputTokens"`
	ModelMs      int64  `json:"modelMs"`
	ObserveMs    int64  `json:"observeMs"`
	ActionMs     int64  `json:"actionMs,omitempty"`
}

// Turn outcomes besides a code.
const OutcomeOK = "ok"

// Task tools: what a model may call.
const (
	ToolLocate  = "locate"
	ToolAct     = "act"
	ToolDone    = "done"
	ToolExtract = "extract"
)

// Extract maps what the tab shows into data that fits a JSON Schema, through a model: read
// only (it never acts), each value citing the outline ref it came from.
type Extract struct {
	op[Extract, ExtractResult]
	Tab string `json:"tab,omitempty" handle:"tab"`
	// Schema is a JSON Schema (draft 2020-12) the data must satisfy; its top level is an
	// object.
	Schema JSONValue `json:"schema" required:"true"`
	// Scope is an outline ref: only that element's subtree is shown and may be cited.
	Scope string `json:"scope,omitempty"`
	// TimeoutMs bounds the whole extract (0: the task budget's 30 s; at most 30 s).
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// ExtractResult is data that satisfied the schema, and where each value came from.
type ExtractResult struct {
	Egress
	Tab  string    `json:"tab" handle:"tab"`
	Data JSONValue `json:"data"`
	// Citations maps the JSON Pointer of every scalar value in Data to the outline ref it was
	// read from.
	Citations map[string]string `json:"citations"`
	Turns     []TurnReceipt     `json:"turns"`
	// Warnings say, from the schema alone, what the caller should know about the data:
	// a string field that looks like a link may hold a relative path (ExtractLinkWarnings).
	Warnings []string `json:"warnings,omitempty"`
}

func (r Task) Validate() error {
	if err := checkTab(OpTask, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(r.Goal); r.Goal == "" || n > budgets.TaskGoalChars {
		return Invalid(OpTask, "request.goal", "expected 1–%d characters saying what the task is for", budgets.TaskGoalChars)
	}
	if r.MaxTurns < 0 || r.MaxTurns > budgets.TaskTurns {
		return NewError(OpTask, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "maxTurns must be between 1 and %d (0: %d)", budgets.TaskTurns, budgets.TaskTurns).WithPath("request.maxTurns")
	}
	if r.MaxActions < 0 || r.MaxActions > budgets.TaskActions {
		return NewError(OpTask, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "maxActions must be between 1 and %d (0: %d)", budgets.TaskActions, budgets.TaskActions).WithPath("request.maxActions")
	}
	if r.Postcondition == nil {
		if r.MaxActions != 1 {
			return Invalid(OpTask, "request.postcondition", "a task needs a postcondition (only a one-action task, maxActions 1, may leave it out)")
		}
	} else if err := checkPostcondition(OpTask, "request.postcondition", *r.Postcondition); err != nil {
		return err
	}
	if err := checkTaskVariables(r.Variables); err != nil {
		return err
	}
	if r.Extract != nil {
		if r.Postcondition == nil {
			return Invalid(OpTask, "request.postcondition", "a combined task (request.extract) needs a postcondition: it acts until that holds, then extracts")
		}
		if _, err := CompileExtractSchema(r.Extract.Schema); err != nil {
			oe := *AsOperationError(OpTask, err)
			oe.Operation, oe.Path = OpTask, "request.extract.schema"
			return &oe
		}
	}
	return checkTaskTimeout(OpTask, r.TimeoutMs)
}

func (r Extract) Validate() error {
	if err := checkTab(OpExtract, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if _, err := CompileExtractSchema(r.Schema); err != nil {
		return err
	}
	if r.Scope != "" {
		if err := checkTarget(OpExtract, "request.scope", Target{Ref: r.Scope}); err != nil {
			return Invalid(OpExtract, "request.scope", "expected an outline ref like \"e12\"")
		}
	}
	return checkTaskTimeout(OpExtract, r.TimeoutMs)
}

func checkPostcondition(op, path string, p Postcondition) error {
	if !slices.Contains(PostconditionKinds, p.Kind) {
		return Invalid(op, path+".kind", `expected "text", "url", "origin" or "title"`)
	}
	if p.Value == "" {
		return Invalid(op, path+".value", "expected a non-empty string")
	}
	return nil
}

func checkTaskTimeout(op string, ms int) error {
	if _, err := budgets.Task().ResolveMs(int64(ms)); err != nil {
		return NewError(op, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "timeoutMs must be between 0 and %d", budgets.Task().Ceiling.Milliseconds()).WithPath("request.timeoutMs")
	}
	return nil
}

// TaskBudget is a task's or extract's own budget: its timeoutMs resolved against the task
// budget (Validate refused one it would not resolve).
func TaskBudget(op Operation) time.Duration {
	ms := 0
	if t, ok := op.(modelTask); ok {
		ms = t.taskTimeoutMs()
	}
	d, err := budgets.Task().ResolveMs(int64(ms))
	if err != nil {
		return budgets.Task().Default
	}
	return d
}

// modelTask is a request the runtime answers with a model under the task budget (task,
// extract): its timeoutMs is that budget's.
type modelTask interface{ taskTimeoutMs() int }

func (r Task) taskTimeoutMs() int    { return r.TimeoutMs }
func (r Extract) taskTimeoutMs() int { return r.TimeoutMs }

// taskDeadline: the task's own budget plus the margin.
func taskDeadline(op Operation, _ time.Duration) time.Duration {
	return TaskBudget(op) + budgets.ClientMargin
}

// JSONValue is JSON the protocol carries through as it is: extract's schema and the data it
// maps. It is a named type so the protocol schema has a rule for it (any JSON value).
type JSONValue json.RawMessage

func (v JSONValue) MarshalJSON() ([]byte, error) { return json.RawMessage(v).MarshalJSON() }

func (v *JSONValue) UnmarshalJSON(b []byte) error { return (*json.RawMessage)(v).UnmarshalJSON(b) }
