package main

import (
	"errors"
	"fmt"
)

// Exit codes (README "CLI reference").
const (
	exitOK          = 0   // all passed
	exitFailed      = 1   // a scenario failed or errored
	exitInvalid     = 2   // usage or invalid input: nothing ran
	exitInterrupted = 130 // interrupted
)

// exitError carries an exit code up through urfave/cli; its message (if any) is printed
// to stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func exitWith(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// usageError is a command-line mistake: exit 2.
func usageError(format string, args ...any) error { return exitWith(exitInvalid, format, args...) }

func exitCodeOf(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitInvalid // urfave/cli's own errors are usage errors (unknown flag, missing arg)
}
