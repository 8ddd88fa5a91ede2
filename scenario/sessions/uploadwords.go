package sessions

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// An upload into words, {"upload":{"into":"the \"Receipt\" file input","files":[…]}} (into
// is words, not an outline ref), needs the session's model: after the operation's when, one
// extract asks it which file input the words describe, and the ref it cites for /input is
// the element; then the upload runs as the by-ref shorthand on that ref, with every rule
// the shorthand has (files under the do's working directory). The history keeps it as
// written and the export as the plain upload by role and exact name, as a by-ref upload: a
// scenario file has no upload in words, so a run never heals it by these words.

// pickLater is the ref an upload into words is checked with before the model picked its
// element: Check proves everything else (files, when, id, timeout), and the ref is replaced
// by the picked one before the upload runs.
const pickLater = "e0"

// uploadWords is an upload into words as read.
type uploadWords struct {
	words string
	top   map[string]json.RawMessage // the operation as read
	body  map[string]json.RawMessage // its "upload" object
}

// readUploadWords reads raw as an upload into words; nil when it is not one (a by-ref
// upload, or another operation: normalize judges those).
func readUploadWords(raw json.RawMessage) (*uploadWords, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil, nil
	}
	if _, isOp := top["op"]; isOp || top["upload"] == nil {
		return nil, nil
	}
	var body map[string]json.RawMessage
	if json.Unmarshal(top["upload"], &body) != nil || body == nil {
		return nil, nil
	}
	var into string
	if json.Unmarshal(body["into"], &into) != nil || isOutlineRef(into) {
		return nil, nil
	}
	if n := utf8.RuneCountInString(into); strings.TrimSpace(into) == "" || n > budgets.UploadWordsChars {
		return nil, Errorf(CodeInvalidInput, "upload.into: expected an outline ref such as \"e5\", or 1–%d characters naming the file input in words", budgets.UploadWordsChars)
	}
	return &uploadWords{words: into, top: top, body: body}, nil
}

// isOutlineRef: s has an outline ref's shape, "e" and digits, bare or in the brackets the
// outline shows it in ("[e5]").
func isOutlineRef(s string) bool {
	s = unbracket(s)
	if len(s) < 2 || s[0] != 'e' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// withRef is the by-ref shorthand the upload runs as, into ref.
func (u *uploadWords) withRef(ref string) json.RawMessage {
	body := map[string]json.RawMessage{}
	for k, v := range u.body {
		body[k] = v
	}
	body["into"], _ = json.Marshal(ref)
	top := map[string]json.RawMessage{}
	for k, v := range u.top {
		top[k] = v
	}
	top["upload"], _ = json.Marshal(body)
	out, _ := json.Marshal(top)
	return out
}

// uploadSchema asks for the file input the words describe: its accessible name, cited by
// its ref, or null when the page shows none.
func uploadSchema(words string) transport.JSONValue {
	s, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"input": map[string]any{
				"type":        []string{"string", "null"},
				"description": "the accessible name of the file input these words describe, citing that input's ref (such as e5); null when the page shows no such file input: " + words,
			},
		},
		"required":             []string{"input"},
		"additionalProperties": false,
	})
	return s
}

// uploadInto runs an upload into words checked as *op (with pickLater as its ref): its when
// first (skipped: the model is never asked), then the model's pick, then the upload on the
// picked ref, checked again so that *op and *entry are what ran (the export names the
// element the receipt reports). turns are the model's receipts: a judged when's, then the
// pick's (also when the pick failed; a failed judgement's are on err).
func (h *Host) uploadInto(ctx context.Context, u *uploadWords, op **scenario.Operation, entry *json.RawMessage, dir string) (res transport.Result, skipped bool, turns []transport.TurnReceipt, err error) {
	if ok, err := h.live.Holds(ctx, h.rt, *op); err != nil || !ok {
		return nil, err == nil, h.live.WhenTurns(), err
	}
	ref, pick, err := h.pickUpload(ctx, u.words)
	turns = slices.Concat(h.live.WhenTurns(), pick)
	if err != nil {
		return nil, false, turns, err
	}
	picked, err := normalize(u.withRef(ref))
	if err != nil {
		return nil, false, turns, err
	}
	checked, err := h.live.Check(picked, dir)
	if err != nil {
		return nil, false, turns, err
	}
	// The when was read above, once, as any operation's is: the upload runs without it, and
	// the history keeps it (the entry has it).
	run := *checked
	run.When = nil
	*op, *entry = checked, picked
	res, _, err = h.live.Run(ctx, h.rt, &run)
	return res, false, turns, err
}

// pickUpload asks the model, with one extract of the selected tab (read-only), which file
// input the words describe: the ref it cites for /input. A null answer, or a citation of a
// line rather than an element, is element_not_found naming the words; nothing was attempted.
func (h *Host) pickUpload(ctx context.Context, words string) (string, []transport.TurnReceipt, error) {
	res, err := transport.Dispatch(ctx, h.rt, transport.Extract{Schema: uploadSchema(words)})
	if err != nil {
		oe := *transport.AsOperationError(transport.OpExtract, err)
		oe.Message = "upload into " + quoteWords(words) + ": the model could not pick the file input: " + oe.Message
		return "", oe.Turns, transport.KeepEvidence(&oe, err)
	}
	ref := res.Citations["/input"]
	if !isOutlineRef(ref) {
		return "", res.Turns, transport.NewError(transport.OpAct, transport.PhaseExecute, transport.CodeElementNotFound, transport.RetryNever, transport.NotAttempted,
			"upload into %s: the model named no file input the words describe (it answered none, or cited a line of the outline rather than an element's ref)", quoteWords(words))
	}
	return ref, res.Turns, nil
}

// quoteWords is words as a message quotes them.
func quoteWords(words string) string { return strconv.Quote(textclip.Clip(words, 120)) }
