// Package process owns the child processes fastbrowser starts: every Chromium, worker,
// fixture server and hook is started, drained, stopped and reaped here.
//
// Each child runs in its own process group, has Pdeathsig (SIGKILL) set on Linux from an OS
// thread that stays locked for the child's whole life, is reaped by exactly one goroutine,
// and has its stdout and stderr drained so a chatty child never blocks. Stop sends SIGTERM
// to the group, waits a bounded grace, then SIGKILLs the group, grandchildren included.
// Spec.TrackTree (fixture servers and hooks) also reaches descendants that left the group
// (setsid, a double-forked daemon): they are found by a token in their inherited
// environment and get the same TERM, grace and KILL. The package does not become a
// subreaper: orphans it kills are reaped by whoever adopted them, never by a wait here.
// Spec.Capture keeps a bounded copy of the output (Capture) that a slow OutputSink cannot
// cost a byte. KillAll SIGKILLs every group not yet stopped, without waiting, for a program
// about to exit abruptly: Pdeathsig reaches direct children only.
//
// The package must not look executables up on PATH, must not wait without a bound (every
// wait comes from package budgets), must never signal a process group id <= 1, and must not
// reap any process it did not start (no wait on -1): other code may own other children.
package process
