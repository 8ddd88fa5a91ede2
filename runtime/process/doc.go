// Package process owns the child processes fastbrowser starts: every Chromium, worker,
// fixture server and hook is started, drained, stopped and reaped here, and, under
// Supervise, also ended when the program that started them dies, even by SIGKILL.
//
// Each child runs in its own process group, has Pdeathsig (SIGKILL) set on Linux from an OS
// thread that stays locked for the child's whole life, is reaped by exactly one goroutine,
// and has its stdout and stderr drained so a chatty child never blocks. Stop sends SIGTERM
// to the group, waits a bounded grace, then SIGKILLs the group, grandchildren included.
// Spec.TrackTree (fixture servers and hooks) also reaches descendants that left the group
// (setsid, a double-forked daemon): they are found by a token in their inherited
// environment and get the same TERM, grace and KILL. This process never becomes a
// subreaper: orphans it kills are reaped by whoever adopted them, never by a wait here.
// Spec.Capture keeps a bounded copy of the output (Capture) that a slow OutputSink cannot
// cost a byte. KillAll SIGKILLs every group not yet stopped, without waiting, for a program
// about to exit abruptly: Pdeathsig reaches direct children only.
//
// Supervise (the CLI calls it; library users and tests that do not keep direct starts) puts
// a supervisor process between the program and its children: the same binary re-executed
// (IsSupervisorInvocation, ServeSupervisor), started with the first child. It forks every
// child for the program, receiving the child's pipes and ExtraFiles over a socketpair, and
// reports each pid and exit status back, so Process keeps its API; Stop, Kill and KillAll
// still signal the groups from the program. It is a child subreaper and dies with the
// program (Pdeathsig, EOF on the socket), and then SIGKILLs every descendant, reaps them,
// and removes the directories registered with RemoveOnAbruptEnd (the browser's temporary
// profile). Every child's environment names its supervisor (pid and start time), so the
// next supervisor to start kills what one that died together with its program left. Where
// it cannot run (not Linux, no /proc) children start directly, after one note.
//
// The package must not look executables up on PATH, must not wait without a bound (every
// wait comes from package budgets), must never signal a process group id <= 1, and must not
// reap any process it did not start (no wait on -1) in the program: other code may own other
// children. The supervisor, whose every child is its own, reaps with wait(-1).
package process
