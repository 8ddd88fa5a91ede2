package main

import (
	"encoding/json"
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// Every session command prints exactly one JSON object on stdout: its result, or
// {"error":{"code","message",…}} with exit 1 (exit 2 for a usage error).

// printJSON writes v as one line of JSON (no HTML escaping: outlines hold < and &).
func printJSON(st *state, v any) {
	enc := json.NewEncoder(st.stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// sessionFailure prints err as the command's error object and returns the exit error.
func sessionFailure(st *state, err error) error {
	body := sessions.AsError(err)
	printJSON(st, sessions.ErrorOutput{Error: body})
	code := exitFailed
	var ue *sessionUsage
	if errors.As(err, &ue) {
		code = exitInvalid
	}
	return &exitError{code: code} // the message is already on stdout
}

// sessionUsage is a command-line mistake of a session command: invalid_input, exit 2.
type sessionUsage struct{ msg string }

func (e *sessionUsage) Error() string { return e.msg }
func (e *sessionUsage) Code() string  { return sessions.CodeInvalidInput }

func sessionUsageError(msg string) error { return &sessionUsage{msg: msg} }

// onSessionUsageError prints urfave/cli's own flag errors as the JSON error object too.
func onSessionUsageError(st *state) cli.OnUsageErrorFunc {
	return func(_ *cli.Context, err error, _ bool) error {
		return sessionFailure(st, sessionUsageError(err.Error()))
	}
}
