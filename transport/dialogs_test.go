package transport

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestActDialogAnswerValidated(t *testing.T) {
	click := func(dialog, promptText string) Act {
		return Act{Action: ActClick, Target: Target{Ref: "e1"}, Dialog: dialog, PromptText: promptText}
	}
	for _, c := range []struct {
		name string
		act  Act
		path string // "" = valid
	}{
		{"default", click("", ""), ""},
		{"dismiss", click(DialogDismiss, ""), ""},
		{"accept", click(DialogAccept, ""), ""},
		{"accept with prompt text", click(DialogAccept, strings.Repeat("é", 1000)), ""},
		{"unknown answer", click("ignore", ""), "request.dialog"},
		{"upper case", click("Accept", ""), "request.dialog"},
		{"prompt text without accept", click("", "Ada"), "request.promptText"},
		{"prompt text with dismiss", click(DialogDismiss, "Ada"), "request.promptText"},
		{"prompt text too long", click(DialogAccept, strings.Repeat("p", 1001)), "request.promptText"},
	} {
		err := c.act.Validate()
		if c.path == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var oe *OperationError
		if !errors.As(err, &oe) || oe.Code != CodeInvalidRequest || oe.Path != c.path || oe.MutationState != NotAttempted {
			t.Errorf("%s: err %v, want invalid_request at %s", c.name, err, c.path)
		}
	}
}

// The dialogs an operation answered travel on every result and on errors.
func TestDialogsOnResultsAndErrors(t *testing.T) {
	d := []Dialog{{Type: "confirm", Message: "Sure?", Action: DialogDismissed}}
	for _, op := range []Operation{&Navigate{}, &Read{}, &Act{}, &CloseTab{}, &Close{}} {
		res := NewResult(op)
		SetDialogs(res, d)
		raw, _ := json.Marshal(res)
		if !strings.Contains(string(raw), `"dialogs":[{"type":"confirm","message":"Sure?","action":"dismissed"}]`) {
			t.Errorf("%s result: %s", op.OpName(), raw)
		}
		back := NewResult(op)
		if err := json.Unmarshal(raw, back); err != nil || len(DialogsOf(back)) != 1 {
			t.Errorf("%s result does not decode its dialogs: %v", op.OpName(), err)
		}
		empty, _ := json.Marshal(NewResult(op))
		if strings.Contains(string(empty), "dialogs") {
			t.Errorf("%s: an operation without dialogs lists them: %s", op.OpName(), empty)
		}
	}
	oe := NewError(OpNavigate, PhaseExecute, CodeNavigationFailed, RetryNever, Unknown, "x")
	oe.Dialogs = d
	raw, _ := json.Marshal(oe)
	if !strings.Contains(string(raw), `"dialogs":[{"type":"confirm"`) {
		t.Errorf("error: %s", raw)
	}
}
