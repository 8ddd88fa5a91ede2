package scenario

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
)

// When is an operation's condition: an assertion of the selected tab, read once (no wait).
// When it does not hold the operation is skipped and the page is left untouched; any other
// failure of the look fails the operation. Sessions record it and export keeps it, so a
// file replays a step that a person skipped the same way.
//
// Its fields are the assertion's, with its rules: every kind an assert takes, a value that is
// a string or {"regex", "flags"?} where the kind takes one (none for visible, hidden, …), and
// name for attribute: {"kind": "visible", "target": {"text": "Accept cookies"}} skips the
// dismissal when there is no banner.
type When struct {
	Kind   string                `json:"kind" required:"true"`
	Value  *transport.ValueMatch `json:"value,omitempty"`
	Name   string                `json:"name,omitempty"`
	Not    bool                  `json:"not,omitempty"`
	Target *transport.Target     `json:"target,omitempty"`
	Cell   *transport.Cell       `json:"cell,omitempty"`
}

// assertion is the read-only check the condition runs.
func (w *When) assertion() transport.Assert {
	a := transport.Assert{Kind: w.Kind, ValueMatch: w.Value, Name: w.Name, Not: w.Not, Target: w.Target, Cell: w.Cell, Wait: transport.WaitNone}
	a.Normalize()
	return a
}

// checkWhen validates a condition like the assertion it becomes (url values resolve like
// assert's).
func checkWhen(w *When, path string, base *url.URL) error {
	a := w.assertion()
	fr := &fileRequest{op: &a}
	if err := resolveAssert(fr, base, path+".value"); err != nil {
		return err
	}
	w.Value = a.ValueMatch // a url resolved against the base
	if err := transport.Validate(&a); err != nil {
		oe := transport.AsOperationError(transport.OpAssert, err)
		return fail(strings.TrimSuffix(path+"."+strings.TrimPrefix(oe.Path, "request."), "."), oe.Message)
	}
	return nil
}

// holds reads the condition once: false with a nil error when it does not hold.
func (w *When) holds(ctx context.Context, c transport.Caller) (bool, error) {
	_, err := transport.Dispatch(ctx, c, w.assertion())
	var oe *transport.OperationError
	if errors.As(err, &oe) && oe.Code == transport.CodeAssertionFailed {
		return false, nil
	}
	return err == nil, err
}
