package process

import (
	"io"
	"os"
)

// Spec describes one child to start.
type Spec struct {
	// Path is the executable, absolute or relative to the caller's working directory (not to
	// Dir). It is never looked up on PATH: callers that want that call exec.LookPath first,
	// so what runs is always what the caller named.
	Path string
	Args []string // argv[1:]
	Dir  string   // working directory; "" means the current one
	Env  []string // full environment as "KEY=V"; nil inherits os.Environ()

	// Stdin, when true, makes Process.Stdin a pipe to the child's stdin; otherwise the child
	// reads /dev/null.
	Stdin bool
	// Stdout, when true, makes Process.Stdout a pipe from the child's stdout that the caller
	// must drain; otherwise the package drains stdout into OutputSink.
	Stdout bool
	// OutputSink receives drained stdout (when !Stdout) and stderr, line by line, from one
	// goroutine. nil discards. A slow sink loses output (with a note saying how many bytes)
	// rather than blocking the child.
	OutputSink io.Writer
	// StderrTap, if set, is called with each stderr line (without its newline; lines over
	// maxLineBytes are cut) from the drain goroutine. It must return quickly: stderr is not
	// read while it runs.
	StderrTap func(line string)
	// Capture, if set, gets every byte the package drains (stdout when !Stdout, and
	// stderr), in read order, straight from the drain goroutines: before OutputSink and
	// independently of it, so a slow sink never costs Capture any output. It is written
	// from two goroutines at once and must return at once without failing: use *Capture
	// (a bounded in-memory copy), not a file or a pipe.
	Capture io.Writer
	// TrackTree marks the child's environment with a token of its own (Linux), so Stop,
	// Kill and KillAll also end descendants that left its process group (setsid, a
	// double-forked daemon): they inherit the token. Only a descendant that clears its
	// environment (env -i, sudo) escapes.
	TrackTree bool
	// ExtraFiles are handed to the child as fds 3, 4, … (os/exec's ExtraFiles), e.g. the
	// two ends of Chromium's --remote-debugging-pipe. Start closes none of them: the caller
	// closes its copies once Start has returned.
	ExtraFiles []*os.File
}
