package transport

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/names"
)

// Validate refuses a malformed request before anything is attempted: the operation's own
// Validate, as an *OperationError naming the operation (invalid_request or budget_exceeded,
// with the field path). It is the one check at each process boundary — Serve decoding a
// frame, runtime.Runtime.Call for library callers, the scenario parser — and a request is
// not validated again inside the same process.
func Validate(op Operation) error {
	if n, ok := op.(interface{ Normalize() }); ok {
		n.Normalize() // a request with two forms of one field sends the wire's (Assert)
	}
	if err := op.Validate(); err != nil {
		return AsOperationError(op.OpName(), err)
	}
	return nil
}

func checkTab(op, path, tab string, required bool) error {
	if tab == "" {
		if required {
			return Invalid(op, path, "a tab handle is required")
		}
		return nil
	}
	if len(tab) > budgets.TabHandleBytes {
		return Invalid(op, path, "tab handle longer than %d bytes", budgets.TabHandleBytes)
	}
	return nil
}

func (r Navigate) Validate() error {
	if err := checkTab(OpNavigate, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if r.URL == "" {
		return Invalid(OpNavigate, "request.url", "expected an http(s) URL, got an empty string")
	}
	if len(r.URL) > budgets.URLBytes {
		return Invalid(OpNavigate, "request.url", "URL longer than %d bytes", budgets.URLBytes)
	}
	return nil
}

func (r Reload) Validate() error { return checkTab(OpReload, "request.tab", r.Tab, false) }
func (r Read) Validate() error   { return checkTab(OpRead, "request.tab", r.Tab, false) }

func (r ListTabs) Validate() error {
	if r.Select == nil {
		return nil
	}
	switch r.Select.Kind {
	case "origin":
		if r.Select.Origin == "" {
			return Invalid(OpListTabs, "request.select.origin", "expected an exact origin")
		}
		if r.Select.Index != nil {
			return Invalid(OpListTabs, "request.select.index", "index goes with kind \"index\", not \"origin\"")
		}
	case "index":
		if r.Select.Index == nil {
			return Invalid(OpListTabs, "request.select.index", "expected an integer 0–%d", budgets.ListTabsMax-1)
		}
		if i := *r.Select.Index; i < 0 || i >= budgets.ListTabsMax {
			return Invalid(OpListTabs, "request.select.index", "expected an integer 0–%d", budgets.ListTabsMax-1)
		}
		if r.Select.Origin != "" {
			return Invalid(OpListTabs, "request.select.origin", "origin goes with kind \"origin\", not \"index\"")
		}
	default:
		return Invalid(OpListTabs, "request.select.kind", "expected \"origin\" or \"index\"")
	}
	return nil
}

func (r SelectTab) Validate() error { return checkTab(OpSelectTab, "request.tab", r.Tab, true) }
func (r CloseTab) Validate() error  { return checkTab(OpCloseTab, "request.tab", r.Tab, true) }
func (Close) Validate() error       { return nil }

func (r Observe) Validate() error {
	if err := checkTab(OpObserve, "request.tab", r.Tab, false); err != nil {
		return err
	}
	for _, c := range []struct {
		l    budgets.Limit
		v    int
		path string
	}{{budgets.OutlineNodes(), r.MaxNodes, "request.maxNodes"}, {budgets.OutlineDepth(), r.MaxDepth, "request.maxDepth"}, {budgets.OutlineTextChars(), r.MaxTextChars, "request.maxTextChars"}} {
		if _, err := c.l.Resolve(c.v); err != nil {
			if c.v < 0 {
				return Invalid(OpObserve, c.path, "expected a positive integer")
			}
			return NewError(OpObserve, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "%s", err.Error()).WithPath(c.path)
		}
	}
	return nil
}

// NamedKeys are the keys `press` accepts besides one printable character.
var NamedKeys = []string{"Enter", "Tab", "Escape", "Backspace", "Delete", "Space", "ArrowUp", "ArrowDown",
	"ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"}

func (r Act) Validate() error {
	if err := checkTab(OpAct, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if !slices.Contains(ActActions, r.Action) {
		return Invalid(OpAct, "request.action", "expected one of %s", strings.Join(ActActions, ", "))
	}
	if r.Target.IsZero() && r.Action != ActPress {
		return Invalid(OpAct, "request.target", "action %q needs a target", r.Action)
	}
	if !r.Target.IsZero() {
		if err := checkTarget(OpAct, "request.target", r.Target); err != nil {
			return err
		}
	}
	if err := checkActOptions(r); err != nil {
		return err
	}
	has := map[string]bool{"text": r.Text != nil, "option": r.Option != "", "key": r.Key != "", "files": r.Files != nil, "to": r.To != nil}
	for field, present := range has {
		want := ActFields[r.Action] == field
		if present && !want {
			return Invalid(OpAct, "request."+field, "%q does not go with action %q", field, r.Action)
		}
		if want && !present {
			return Invalid(OpAct, "request."+field, "action %q needs %q", r.Action, field)
		}
	}
	if r.Text != nil && r.Text.EnvName() == "" && r.Text.Len() > budgets.TypedTextChars {
		return Invalid(OpAct, "request.text", "text longer than %d characters", budgets.TypedTextChars)
	}
	if err := validateDialogAnswer(r.Dialog, r.PromptText); err != nil {
		return err
	}
	if r.Action == ActPress && !validKey(r.Key) {
		return Invalid(OpAct, "request.key", "expected one printable character or one of %v, after modifiers joined with + (%s)", NamedKeys, strings.Join(Modifiers, ", "))
	}
	if r.Action == ActUpload {
		if len(r.Files) == 0 || len(r.Files) > budgets.UploadFiles {
			return Invalid(OpAct, "request.files", "expected 1–%d file paths", budgets.UploadFiles)
		}
		for i, f := range r.Files {
			if f == "" || len(f) > budgets.UploadPathBytes {
				return Invalid(OpAct, "request.files["+strconv.Itoa(i)+"]", "expected a file path")
			}
		}
	}
	return nil
}

// validateDialogAnswer checks an act's dialog answer: accept or dismiss, and a prompt text
// only to accept with, bounded.
func validateDialogAnswer(dialog, promptText string) error {
	switch dialog {
	case "", DialogAccept, DialogDismiss:
	default:
		return Invalid(OpAct, "request.dialog", "expected \"accept\" or \"dismiss\"")
	}
	if promptText != "" && dialog != DialogAccept {
		return Invalid(OpAct, "request.promptText", "promptText goes with dialog \"accept\"")
	}
	if utf8.RuneCountInString(promptText) > budgets.PromptTextChars {
		return Invalid(OpAct, "request.promptText", "promptText longer than %d characters", budgets.PromptTextChars)
	}
	return nil
}

func (r WaitPopup) Validate() error { return checkTab(OpWaitPopup, "request.opener", r.Opener, false) }

func (r CaptureEvidence) Validate() error {
	if err := checkTab(OpCaptureEvidence, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if !names.ValidID(r.RunID) {
		return Invalid(OpCaptureEvidence, "request.runId", "expected 1–64 characters of A-Z a-z 0-9 . _ - (not . or ..)")
	}
	if !slices.Contains(evidenceOperations(), r.Operation) {
		return Invalid(OpCaptureEvidence, "request.operation", "expected the operation the evidence is for, one of %s",
			strings.Join(evidenceOperations(), ", "))
	}
	if err := checkCaptureBudget(OpCaptureEvidence, r.BudgetMs); err != nil {
		return err
	}
	for i, p := range r.Parts {
		if !slices.Contains(EvidenceParts, p) || slices.Contains(r.Parts[:i], p) {
			return Invalid(OpCaptureEvidence, "request.parts["+strconv.Itoa(i)+"]", "expected one of %s, each at most once", strings.Join(EvidenceParts, ", "))
		}
	}
	return ValidateRedaction(OpCaptureEvidence, "request.redaction", r.Redaction)
}

// ValidateRedaction checks redaction rules: at most budgets.RedactionRules, each with a role,
// a name or a label of at most budgets.RedactionRuleFieldChars characters.
func ValidateRedaction(op, path string, rules []RedactionRule) error {
	if len(rules) > budgets.RedactionRules {
		return Invalid(op, path, "more than %d redaction rules", budgets.RedactionRules)
	}
	for i, rule := range rules {
		p := path + "[" + strconv.Itoa(i) + "]"
		if rule.Role == "" && rule.Name == "" && rule.Label == "" {
			return Invalid(op, p, "expected a role, a name or a label")
		}
		for _, f := range []string{rule.Role, rule.Name, rule.Label} {
			if utf8.RuneCountInString(f) > budgets.RedactionRuleFieldChars {
				return Invalid(op, p, "a rule field is longer than %d characters", budgets.RedactionRuleFieldChars)
			}
		}
	}
	return nil
}
