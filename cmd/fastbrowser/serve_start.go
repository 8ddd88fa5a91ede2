package main

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// A serve that cannot start tells its parent on stdout, the one channel a parent reads: one
// error frame without an id and no ready frame (wire.RefuseStart), then the exit (2 for
// a refused flag, invalid_request; 1 for a session that did not open, its own code, such as
// launch_failed). stderr says the same for a person.

// servingError is a failure after the ready frame: the parent has heard from the protocol
// already (or stdout is gone), so no start frame follows.
type servingError struct{ error }

func (e servingError) Unwrap() error { return e.error }

// startError is a session that did not open: the frame carries oe, the exit is exit's.
type startError struct {
	oe   *transport.OperationError
	exit error
}

func (e *startError) Error() string { return e.exit.Error() }
func (e *startError) Unwrap() error { return e.exit }

// startFailed is the start failure of cause (a runtime.Open error), exiting with exit.
func startFailed(cause, exit error) error {
	return &startError{oe: transport.AsOperationError("", cause), exit: exit}
}

// refuseServe writes err's start frame unless err is nil or came after the ready frame, and
// returns err for its exit code. The frame's message is scrubbed with set when it is known.
func refuseServe(st *state, set *secrets.Set, err error) error {
	var se servingError
	if err == nil || errors.As(err, &se) {
		return err
	}
	var oe *transport.OperationError
	var start *startError
	if errors.As(err, &start) {
		cp := *start.oe
		oe = &cp
	} else {
		// A usage error (exit 2): the flag it names and what was expected, as on stderr.
		oe = transport.NewError("", transport.PhaseValidate, transport.CodeInvalidRequest, transport.RetryNever,
			transport.NotAttempted, "%s", err.Error())
	}
	if set != nil {
		oe.Message = set.Scrub(oe.Message)
	}
	_ = wire.RefuseStart(st.stdout, oe)
	return err
}
