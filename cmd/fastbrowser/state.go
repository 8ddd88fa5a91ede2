package main

import (
	"io"
	"os"
)

// state is everything the CLI takes from the OS, injected so tests run the whole CLI in
// process and assert on output and exit code (k6's cmd/state pattern).
type state struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	lookupEnv      func(string) (string, bool)
	stdoutIsTTY    bool
	// stdinIsTTY: stdin is a terminal (session do refuses to wait on one).
	stdinIsTTY bool
	// workerPath overrides the executable started as the worker ("" = this binary).
	workerPath string
}

func osState() *state {
	return &state{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, lookupEnv: os.LookupEnv,
		stdoutIsTTY: isTerminal(os.Stdout), stdinIsTTY: isTerminal(os.Stdin)}
}

// withOutput is a copy of st writing to other stdout and stderr (a run's scrubbing writers).
func (st *state) withOutput(stdout, stderr io.Writer) *state {
	c := *st
	c.stdout, c.stderr = stdout, stderr
	return &c
}

// lookup is the environment lookup, never nil.
func (st *state) lookup() func(string) (string, bool) {
	if st.lookupEnv == nil {
		return os.LookupEnv
	}
	return st.lookupEnv
}
