package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// DoRequest is what `session do` sends its host: the operation as read from stdin, the
// values of the variables its {"env":…} references name, read from the do command's own
// environment, and its working directory (upload paths resolve there).
type DoRequest struct {
	Operation json.RawMessage   `json:"operation"`
	Env       map[string]string `json:"env,omitempty"`
	Dir       string            `json:"dir"`
}

// DoResult is `session do`'s output.
type DoResult struct {
	Index         int                     `json:"index"`
	Status        string                  `json:"status"` // done, failed, skipped
	Op            string                  `json:"op"`
	Receipt       *transport.Receipt      `json:"receipt,omitempty"`
	MutationState transport.MutationState `json:"mutationState,omitempty"`
	// Result is the operation's own result (protocol v1's, or a step's).
	Result  json.RawMessage     `json:"result,omitempty"`
	Blocked []transport.Blocked `json:"blocked,omitempty"`
	Dialogs []transport.Dialog  `json:"dialogs,omitempty"`
	// Files are the artifacts the operation saved (a screenshot), as absolute paths.
	Files   []string `json:"files,omitempty"`
	Page    Page     `json:"page"`
	Refused *Refused `json:"refused,omitempty"`
	// TLSVerified and Warnings: as OpenResult's, for the page after the operation.
	TLSVerified bool     `json:"tls_verified"`
	Warnings    []string `json:"warnings,omitempty"`
	// Turns are a task's or extract's turn receipts (an act in words is a task), also when
	// it failed: content-free (no page text, prompt or model output).
	Turns []transport.TurnReceipt `json:"turns,omitempty"`
	// Actions are a task's accounting, the actions it dispatched, also when it failed (never
	// what a type typed).
	Actions []transport.TaskAction `json:"actions,omitempty"`
	// Act is the act in words a click, typing or pick by ref is kept as (`Click the "Sign
	// in" button`): its export replays the action and heals by these words.
	Act string `json:"act,omitempty"`
	// Replays, for an act in words that was done: whether its export replays the action it
	// took without a model (false: it used a variable's value in what it acted on, so the
	// export keeps its words alone).
	Replays *bool `json:"replays,omitempty"`
	// Into, for an upload, is the input in words: an upload into words's own words (receipt
	// names the input the model picked), or for an upload by ref the input it found, as a
	// person writes it (`the "Receipt" file input`).
	Into string `json:"into,omitempty"`
	// SkipReason says why a skipped operation was skipped (a run report's skipReason).
	SkipReason string     `json:"skipReason,omitempty"`
	Error      *ErrorBody `json:"error,omitempty"`
}

// do runs one operation and records it.
func (h *Host) do(ctx context.Context, raw json.RawMessage) (any, error) {
	var req DoRequest
	if err := json.Unmarshal(raw, &req); err != nil || len(req.Operation) == 0 {
		return nil, Errorf(CodeInvalidInput, "the do request is malformed")
	}
	opRaw, given, err := splitVariables(req.Operation)
	if err != nil {
		return nil, err
	}
	vars, err := h.doVariables(given, req.Env)
	if err != nil {
		return nil, err
	}
	if err := h.refuseJudgedWithoutModel(opRaw); err != nil {
		return nil, err
	}
	up, err := readUploadWords(opRaw)
	if err != nil {
		return nil, err
	}
	if up != nil && !h.hasModel {
		return nil, Errorf(CodeModelRequired, "an upload into words needs a model to pick the file input, and none is configured; name the input by its outline ref ({\"upload\":{\"into\":\"e5\",\"files\":[…]}})")
	}
	entryJSON, words, err := actInWords(opRaw, vars)
	textVar, byRef := "", !words && isShorthand(opRaw)
	if !words || !h.hasModel {
		src := opRaw
		if up != nil {
			src = up.withRef(pickLater)
		}
		if entryJSON, err = normalize(src); err == nil {
			entryJSON, textVar, err = typedText(entryJSON, vars)
		}
	}
	if err != nil {
		return nil, err
	}
	if byRef {
		if err := h.named(entryJSON); err != nil {
			return nil, err
		}
	}
	if err := h.admitKey(req.Env); err != nil {
		return nil, err
	}
	if err := h.admitSecrets(entryJSON, req.Env, vars.envNames()); err != nil {
		return nil, err
	}
	if up != nil && h.secrets.Scrub(up.words) != up.words {
		return nil, Errorf(CodeInvalidInput, "upload.into: the words hold a secret value; words are recorded and shown to the model: name the file input by what the page shows")
	}
	h.remember(given)
	op, err := h.live.Check(entryJSON, req.Dir)
	if err != nil {
		return nil, checkRefusal(err, wroteTimeout(req.Operation))
	}
	if err := uploadsUnder(op, req.Dir); err != nil {
		return nil, err
	}
	before := h.page
	h.callEnv, h.callDir = req.Env, req.Dir
	var res transport.Result
	var skipped bool
	var runErr error
	var picked []transport.TurnReceipt // an upload into words: the model's pick
	if up != nil {
		res, skipped, picked, runErr = h.uploadInto(ctx, up, &op, &entryJSON, req.Dir)
	} else {
		res, skipped, runErr = h.live.Run(ctx, h.rt, op)
	}
	h.callEnv, h.callDir = nil, ""
	h.noteCrash(runErr)
	if nav, ok := res.(*transport.NavigateResult); ok {
		h.noteStatus(nav)
	}
	if mayChangePage(op) {
		h.setPage(h.settle(ctx))
	} else {
		h.setPage(h.look(ctx))
	}

	out := &DoResult{Index: h.history, Op: op.Op, Page: h.page.Page, Refused: refusal(h.page.Page, h.pageStatus()), Turns: turnsOf(op.Op, res, runErr), Actions: actionsOf(op.Op, res, runErr),
		TLSVerified: h.rt.TLSVerified(h.page.URL), Warnings: h.rt.TLSWarnings()}
	if up != nil {
		out.Into = up.words
		if len(picked) > 0 { // the judgement's and the pick's (the upload asks no model)
			out.Turns = picked
		}
	} else if judged := h.live.WhenTurns(); len(judged) > 0 {
		out.Turns = slices.Concat(judged, out.Turns) // a judged when's, then the operation's own
	}
	entry := Entry{Index: h.history, Operation: opRaw, Variables: given.sources(), URLBefore: before.URL, URLAfter: h.page.URL, Turns: out.Turns, Actions: out.Actions, At: time.Now()}
	switch {
	case runErr != nil:
		out.Status, entry.Status = StatusFailed, StatusFailed
		out.Error = AsError(runErr)
		out.Error.Code = CodeOperationFailed
		if out.Refused != nil {
			out.Error.Message = strings.TrimRight(out.Error.Message, ". ") + ". " + out.Refused.Message
		}
		out.Blocked, out.Dialogs = transport.AsOperationError(op.Op, runErr).Blocked, transport.AsOperationError(op.Op, runErr).Dialogs
		entry.Code, entry.Message = out.Error.Cause, out.Error.Message
	case skipped:
		out.Status, entry.Status = StatusSkipped, StatusSkipped
		out.SkipReason = scenario.SkipReason(op)
	default:
		out.Status, entry.Status = StatusDone, StatusDone
		out.fill(res, h.artifactPath)
	}
	switch {
	case entry.Status == StatusSkipped && up != nil:
		// Skipped before the model picked its input: there is no element to export it by,
		// so it is neither exported nor kept (no later operation can refer to it by id).
		entry.NotPicked = true
	case entry.Status != StatusFailed:
		entry.Export, entry.NotUnique, entry.UnresolvedRefs = exportOp(entryJSON, before, h.refs, out.Receipt, op.UploadFiles())
		entry.Upload = isUpload(op)
		h.live.Keep(op, res)
		if textVar != "" && entry.Status == StatusDone {
			entry.Export = textAsVar(entry.Export, textVar)
			entry.ExportVariables = map[string]string{textVar: vars[textVar].literal}
		}
		if byRef && entry.Status == StatusDone && out.Into == "" && out.Receipt != nil && out.Receipt.Action == transport.ActUpload && out.Receipt.Name != "" {
			out.Into = "the " + strconv.Quote(out.Receipt.Name) + " file input"
		}
		if byRef && entry.Status == StatusDone {
			if w, wv, ok := refWords(out.Receipt, requestText(entryJSON), textVar, vars); ok {
				defaults := map[string]string{}
				entry.Export, out.Act = withWords(entry.Export, w, wv, defaults), w
				if len(defaults) > 0 {
					entry.ExportVariables = defaults
				}
			}
		}
	}
	if words && entry.Status == StatusDone {
		// Exported as its words with the recording of the act the task dispatched: a replay
		// needs no model while the recording matches. A task that reports no action (none
		// can succeed so) is not exported.
		task, _ := res.(*transport.TaskResult)
		defaults := map[string]string{}
		goal := wordsOf(opRaw)
		if x, replays, ok := wordsExport(entryJSON, goal, vars.named(goal), task, req.Env, defaults); ok {
			r := task.Actions[0].Receipt
			entry.Export, entry.NotUnique, entry.UnresolvedRefs = x, before.names[roleName{r.Role, r.Name}] > 1, nil
			entry.NoRecording, out.Replays = !replays, &replays
			if len(defaults) > 0 {
				entry.ExportVariables = defaults
			}
		} else {
			entry.Export, entry.Status = nil, StatusFailed
			entry.Code, entry.Message = string(transport.CodeInternal), "the act in words reported no action to export"
		}
	}
	if err := h.dir.AppendEntry(entry); err != nil {
		return nil, Errorf(CodeFailed, "operation %d ran (%s) but the history could not be written", h.history, out.Status)
	}
	h.history++
	return out, nil
}

// named refuses a by-ref act on an element the outline showed without an accessible name
// (seed 004: "the element must ... have a name"): the session keeps the act by role and
// name, so an export of it could not find the element again. A ref no outline showed is
// left to the runtime, which says it was never issued.
func (h *Host) named(entry json.RawMessage) error {
	var e struct {
		Request struct {
			Target struct {
				Ref string `json:"ref"`
			} `json:"target"`
		} `json:"request"`
	}
	_ = json.Unmarshal(entry, &e)
	ref := e.Request.Target.Ref
	if role, name, ok := h.refs.resolve(ref); ok && name == "" {
		return Errorf(CodeInvalidInput, "%s is a %s with no accessible name: an act by ref is kept and exported by role and name, so name the element another way ({\"op\":\"act\",\"request\":{\"target\":{\"role\":…,\"nth\":…}}} or a label, text or test id locator)", ref, role)
	}
	return nil
}

// fill copies what the result says it did.
func (r *DoResult) fill(res transport.Result, artifactPath func(string) string) {
	r.Result, _ = json.Marshal(res)
	r.Blocked, r.Dialogs = transport.BlockedOf(res), transport.DialogsOf(res)
	switch v := res.(type) {
	case *transport.ActResult:
		r.Receipt, r.MutationState = &v.Receipt, v.MutationState
	case *scenario.StepResult:
		r.Receipt, r.MutationState = &v.Receipt, v.MutationState
	case *transport.TaskResult:
		if len(v.Actions) > 0 {
			r.Receipt = &v.Actions[len(v.Actions)-1].Receipt
		}
		r.MutationState = v.MutationState
	case *transport.ScreenshotResult:
		if v.Artifact != nil && v.Artifact.Path != "" {
			r.Files = append(r.Files, artifactPath(v.Artifact.Path))
		}
	}
}

// admitKey makes the model's API key, which the do command sent under the variable the
// session's --model-api-key-env names, a secret from now on (masked in everything the session
// writes); the adapter reads it through lookupEnv during this do only. A do that did not
// send it runs; an operation that calls the model then fails model_failed naming the
// variable.
func (h *Host) admitKey(env map[string]string) error {
	if !h.hasModel || h.keyEnv == "" {
		return nil
	}
	v, ok := env[h.keyEnv]
	if !ok {
		return nil
	}
	if err := h.secrets.Add(v); errors.Is(err, secrets.ErrTooShort) {
		return Errorf(CodeInvalidInput, "the value of %s (the model API key) is shorter than %d characters and cannot be kept secret", h.keyEnv, secrets.MinLen)
	} else if err != nil {
		return Errorf(CodeInvalidInput, "the value of %s (the model API key) cannot be kept secret", h.keyEnv)
	}
	return nil
}

// admitSecrets reads the values of the operation's {"env":…} references from what the do
// command sent (never from the host's environment), makes them secrets from now on, and
// refuses an instruction or a when condition that holds one.
func (h *Host) admitSecrets(entry json.RawMessage, env map[string]string, more []string) error {
	for _, name := range append(envNames(entry), more...) {
		v, ok := env[name]
		if !ok {
			return Errorf(CodeInvalidInput, "%s is not set in the environment of `session do`", name)
		}
		if err := h.secrets.Add(v); errors.Is(err, secrets.ErrTooShort) {
			return Errorf(CodeInvalidInput, "the value of %s is shorter than %d characters and cannot be kept secret", name, secrets.MinLen)
		} else if err != nil {
			return Errorf(CodeInvalidInput, "the value of %s cannot be kept secret", name)
		}
	}
	if h.secrets.Len() == 0 {
		return nil
	}
	var probe struct {
		Step *struct {
			Instruction string `json:"instruction"`
		} `json:"step"`
		When    json.RawMessage `json:"when"`
		Request *struct {
			Goal string `json:"goal"`
		} `json:"request"`
	}
	_ = json.Unmarshal(entry, &probe)
	if probe.Request != nil && h.secrets.Scrub(probe.Request.Goal) != probe.Request.Goal {
		return Errorf(CodeInvalidInput, "act: the words hold a secret value; words are recorded and exported as written: name it as a variable (%%name%%) instead")
	}
	if probe.Step != nil && h.secrets.Scrub(probe.Step.Instruction) != probe.Step.Instruction {
		return Errorf(CodeInvalidInput, "step.instruction contains a secret value; an instruction is recorded and exported as written")
	}
	var judged string // a condition in words, as the model would be shown it
	if len(probe.When) > 0 && (string(h.secrets.ScrubBytes(probe.When)) != string(probe.When) ||
		json.Unmarshal(probe.When, &judged) == nil && h.secrets.Scrub(judged) != judged) {
		return Errorf(CodeInvalidInput, "when contains a secret value; a condition is recorded and exported as written (and one in words is shown to the model)")
	}
	// Anything else written as a literal is recorded and exported as written too: a literal
	// that is a secret's value (typed as text, asserted as a value) would put the secret in
	// the history and the export.
	// The scrubber knows the JSON-escaped spellings a re-encoded value holding < > & or a
	// quote has (TestAdmitSecretsSeesEscapedValues).
	if string(h.secrets.ScrubBytes(entry)) != string(entry) {
		return Errorf(CodeInvalidInput, `the operation holds a secret's value as a literal, and an operation is recorded and exported as written; give it as {"env":"NAME"}`)
	}
	return nil
}

// refuseJudgedWithoutModel refuses, in a session without a model, an operation whose when
// is words (the model judges it) before anything runs or is recorded, as an act in words is
// refused.
func (h *Host) refuseJudgedWithoutModel(op json.RawMessage) error {
	var probe struct {
		When json.RawMessage `json:"when"`
	}
	var words string
	if h.hasModel || json.Unmarshal(op, &probe) != nil || json.Unmarshal(probe.When, &words) != nil {
		return nil
	}
	return Errorf(CodeModelRequired, "when %s is judged by a model, and the session has none (open it with --model); nothing ran. Give the condition as an assertion ({\"kind\":\"visible\",\"target\":…}) instead", quoteWords(words))
}

// envNames lists the variables an operation's {"env":"NAME"} values name.
func envNames(entry json.RawMessage) []string {
	var v any
	if json.Unmarshal(entry, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			if name, ok := t["env"].(string); ok && len(t) == 1 {
				out = append(out, name)
				return
			}
			for _, c := range t {
				walk(c)
			}
		case []any:
			for _, c := range t {
				walk(c)
			}
		}
	}
	walk(v)
	return out
}

// checkRefusal is Live.Check's refusal as a session error: invalid_input with the field
// path, the protocol code (budget_exceeded for a timeout over its ceiling) as its cause.
func checkRefusal(err error, asTimeout bool) error {
	var ve *scenario.ValidationError
	if errors.As(err, &ve) {
		path := ve.Path
		if asTimeout && path == "timeoutMs" {
			path = "timeout" // what the person wrote
		}
		shown := path
		if shown == "" {
			shown = "(the operation)"
		}
		return errorOf(ErrorBody{Code: CodeInvalidInput, Message: shown + ": " + ve.Message, Cause: string(ve.Code), Path: path})
	}
	return err
}

// uploadsUnder refuses an upload whose files are outside the do command's working
// directory (Check already made them absolute and proved them regular files).
func uploadsUnder(op *scenario.Operation, dir string) error {
	files := op.UploadFiles()
	if len(files) == 0 {
		return nil
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return Errorf(CodeInvalidInput, "the working directory of `session do` cannot be read")
	}
	for i, f := range files {
		real, err := filepath.EvalSymlinks(f)
		if err != nil {
			return Errorf(CodeInvalidInput, "request.files[%d]: no such file", i)
		}
		if !runtime.Within(root, real) {
			return Errorf(CodeInvalidInput, "request.files[%d]: upload paths must be under the working directory of `session do`", i)
		}
	}
	return nil
}

func isUpload(op *scenario.Operation) bool { return len(op.UploadFiles()) > 0 }

// EnvValues reads, from a do command's environment, the variables the operation's
// {"env":…} references name and, in a session with a model, the one that holds its API key
// (o.Model.APIKeyEnv): only those, nothing else of the environment leaves the command.
func EnvValues(rec Record, op json.RawMessage, lookup func(string) (string, bool)) map[string]string {
	o := rec.Options
	out := map[string]string{}
	names := envNames(op)
	for _, name := range slices.Sorted(maps.Keys(rec.EnvVariables)) {
		names = append(names, rec.EnvVariables[name]) // every later do reads them
	}
	if o.Model != nil && o.Model.APIKeyEnv != "" {
		names = append(names, o.Model.APIKeyEnv)
	}
	for _, name := range names {
		if v, ok := lookup(name); ok {
			out[name] = v
		}
	}
	return out
}

// mayChangePage: the operation may have changed the page (a step acts; the table says which
// operations mutate), so the page after it is looked at until it settles.
func mayChangePage(op *scenario.Operation) bool {
	if op.Op == scenario.OpStep {
		return true
	}
	spec, ok := transport.LookupOp(op.Op)
	return ok && spec.Mutates
}

// wroteTimeout: the operation as given says "timeout" (do's spelling of timeoutMs).
func wroteTimeout(op json.RawMessage) bool {
	var probe map[string]json.RawMessage
	_ = json.Unmarshal(op, &probe)
	_, ok := probe["timeout"]
	return ok
}
