package budgets

import "time"

// Semantic tasks with a model (runtime/model, runtime's task and extract; docs/models.md).

// task bounds one task or extract: every model call, observation, action and check in it.
// The 30 s ceiling is the task ceiling of the semantic loop's design; an operation's
// timeoutMs may lower it, never raise it.
var task = Budget{Name: "task", Default: 30 * time.Second, Ceiling: 30 * time.Second}

// Task bounds a whole task or extract.
func Task() Budget { return task }

const (
	// TaskTurns is the most model turns a task may take (maxTurns defaults to it and may
	// not exceed it); the turn after the last is refused, never taken.
	TaskTurns = 8
	// TaskActions is the most actions a task may dispatch (maxActions, likewise).
	TaskActions = 8
	// TaskGoalChars bounds a task's goal.
	TaskGoalChars = 2000
	// JudgedWhenChars bounds a condition in words (a judged when): it is shown to the model
	// in the schema of the one extract that judges it.
	JudgedWhenChars = 500
	// UploadWordsChars bounds the words a session's upload names its file input by, shown
	// to the model likewise.
	UploadWordsChars = 500
	// ModelPageChars bounds the page text (the outline, rendered) one model turn is shown;
	// ModelPageNodes bounds the nodes it is rendered from.
	ModelPageChars = 16000
	ModelPageNodes = 400
	// ModelReplyBytes bounds a model endpoint's answer read back; more is model_failed.
	ModelReplyBytes = 1 << 20
	// ModelMaxTokens is the completion token limit a model request asks for.
	ModelMaxTokens = 1024
	// ModelToolArgsBytes bounds one tool call's arguments.
	ModelToolArgsBytes = 64 << 10
	// ExtractSchemaBytes bounds an extract's JSON Schema; ExtractDataBytes the data a model
	// maps into it.
	ExtractSchemaBytes = 32 << 10
	ExtractDataBytes   = 64 << 10
	// TaskSettle bounds a task's settlement after an action: looks TaskSettlePoll apart until
	// two in a row agree (mutation-quiet), so a click that navigates is observed on the page
	// it led to. A page that never stops changing is taken as the last look saw it.
	TaskSettle     = 2 * time.Second
	TaskSettlePoll = 100 * time.Millisecond
	// ModelConnect bounds reaching a model endpoint (TCP and TLS); the whole call is bounded
	// by what is left of the task.
	ModelConnect = 5 * time.Second
	// TaskLease is how long a host's refreshTask keeps a hosted task fresh: past it, the
	// task admits no model call and no action (task_stale). A beginTask's leaseMs may
	// shorten it, never lengthen it.
	TaskLease = 30 * time.Second
	// TaskSampleSkew is how far ahead of the runtime's clock a host's facts sample
	// (refreshTask's facts.sampledAtMs) may be before it counts as from the future.
	TaskSampleSkew = time.Second
	// HostedTasks bounds the tasks one session holds from beginTask until finishTask.
	HostedTasks = 16
)
