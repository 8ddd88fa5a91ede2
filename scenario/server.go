package scenario

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process"
	"github.com/fastbrowser/fastbrowser/transport"
)

// fixtureServer is a started (managed) or probed (external) fixture server.
type fixtureServer struct {
	proc *process.Process // nil for external or reused servers
}

// startManaged starts a managed server's trusted argv in its own process group, after
// refusing a readiness URL that already answers (unless reuseExisting, when the answering
// server is used as it is: reused is true and nothing is started). It does not wait for
// readiness.
func startManaged(ctx context.Context, s *Server, dir string, lookup func(string) (string, bool), log io.Writer, out *outputLog) (fs *fixtureServer, reused bool, err error) {
	if probeOnce(ctx, s.Readiness.URL) != 0 {
		if s.ReuseExisting {
			return &fixtureServer{}, true, nil
		}
		return nil, false, scenarioError(transport.CodeFixturePortInUse, "something already answers %s; stop it or set reuseExisting", s.Readiness.URL)
	}
	proc, err := startCommand(s.Start, dir, lookup, log, out)
	if err != nil {
		return nil, false, scenarioError(transport.CodeFixtureNotReady, "the fixture server could not be started: %s", err.Error())
	}
	return &fixtureServer{proc: proc}, false, nil
}

// awaitReady polls the readiness URL until it answers the expected status, within the
// readiness budget (and the scenario's, via ctx). A managed server that exits meanwhile
// fails at once. It never stops the server: the caller's finally does, after cleanup.
func awaitReady(ctx context.Context, s *Server, fs *fixtureServer) error {
	want := s.Readiness.ExpectedStatus
	if want == 0 {
		want = 200
	}
	timeout, _ := budgets.FixtureReadiness().ResolveMs(s.Readiness.TimeoutMs)
	var exited <-chan struct{}
	if fs != nil && fs.proc != nil {
		exited = fs.proc.Done()
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last, err := waitReady(rctx, s.Readiness.URL, want, exited)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errServerExited):
		return scenarioError(transport.CodeFixtureNotReady, "the fixture server exited (%s) before %s was ready", exitOf(fs.proc), s.Readiness.URL)
	case ctx.Err() != nil:
		// The scenario budget or the run ended the wait, not the readiness budget.
		return ctxEnded(ctx, "while waiting for "+s.Readiness.URL)
	case last == 0:
		return scenarioError(transport.CodeFixtureNotReady, "%s did not answer within the readiness budget (%s)", s.Readiness.URL, timeout)
	}
	return scenarioError(transport.CodeFixtureNotReady, "%s answered %d, expected %d, within the readiness budget (%s)", s.Readiness.URL, last, want, timeout)
}

func exitOf(p *process.Process) string {
	if p == nil {
		return "unknown"
	}
	if sig := p.Signal(); sig != "" {
		return "signal " + sig
	}
	return fmt.Sprintf("exit code %d", p.ExitCode())
}

// stop ends a managed server: TERM to its process group (and to descendants that left it),
// a grace period, then KILL of the whole group and tree; it returns once they are gone (or
// with an error when they could not be made to go). Then it waits, bounded, for the last of
// the server's output to be drained.
func (fs *fixtureServer) stop() error {
	if fs == nil || fs.proc == nil {
		return nil
	}
	err := fs.proc.Stop(budgets.ProcessStopGrace().Default)
	awaitDrained(fs.proc)
	return err
}

// awaitDrained waits, at most the stop grace, for the package's drains of p to end, so an
// output log taken afterwards holds everything the process wrote.
func awaitDrained(p *process.Process) {
	t := time.NewTimer(budgets.ProcessStopGrace().Default)
	defer t.Stop()
	select {
	case <-p.Drained():
	case <-t.C:
	}
}

// startCommand starts trusted argv: the program is found on PATH only when it has no slash
// (like exec.Command), relative paths resolve against dir, and no shell is involved. Its
// output goes to log and, bounded, to out (when not nil).
func startCommand(c *Command, dir string, lookup func(string) (string, bool), log io.Writer, out *outputLog) (*process.Process, error) {
	cwd := commandDir(c, dir)
	prog := c.Command
	if strings.ContainsRune(prog, '/') {
		prog = resolveIn(cwd, prog)
	} else {
		p, err := exec.LookPath(prog)
		if err != nil {
			return nil, fmt.Errorf("%q was not found on PATH", c.Command)
		}
		prog = p
	}
	env := os.Environ()
	for name, v := range c.Env {
		val, ok := v.Resolve(lookup)
		if !ok {
			return nil, fmt.Errorf("environment variable %s (for %s) is not set", v.FromEnv, name)
		}
		env = append(env, name+"="+val)
	}
	// TrackTree: a daemon the command leaves (setsid, double fork) is stopped with it.
	spec := process.Spec{Path: prog, Args: c.Args, Dir: cwd, Env: env, OutputSink: log, TrackTree: true}
	if out != nil {
		spec.Capture = out.capt
	}
	return process.Start(spec)
}

// runHook runs a one-shot hook within its budget (and the scenario's, via ctx). Its output
// goes to log and, bounded, to out.
func runHook(ctx context.Context, name string, c *Command, dir string, lookup func(string) (string, bool), log io.Writer, out *outputLog) error {
	timeout, _ := budgets.Hook().ResolveMs(c.TimeoutMs)
	proc, err := startCommand(c, dir, lookup, log, out)
	if err != nil {
		return scenarioError(transport.CodeHookFailed, "%s hook could not start: %s", name, err.Error())
	}
	// However the hook ends, its group is gone and its output read before this returns.
	defer awaitDrained(proc)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-proc.Done():
	case <-timer.C:
		_ = proc.Stop(budgets.ProcessStopGrace().Default)
		return scenarioError(transport.CodeHookFailed, "%s hook did not finish within the hook budget (%s)", name, timeout)
	case <-ctx.Done():
		_ = proc.Stop(budgets.ProcessStopGrace().Default)
		return ctxEnded(ctx, "during the "+name+" hook")
	}
	// The hook itself exited; anything it left in its process group goes too.
	_ = proc.Stop(0)
	if code := proc.ExitCode(); code != 0 {
		return scenarioError(transport.CodeHookFailed, "%s hook failed (%s)", name, exitOf(proc))
	}
	return nil
}

// budgetOr reports ctx's end instead of err once ctx has ended, whatever it interrupted:
// the failure is then the budget's or the interrupt's, not what happened to be running.
func budgetOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxEnded(ctx, "before the operations started")
	}
	return err
}

// ctxEnded names why ctx ended: the scenario budget ended (timeout, naming the budget's
// value) or the run was interrupted (cancelled; the scenario is then reported interrupted).
func ctxEnded(ctx context.Context, when string) *transport.OperationError {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return scenarioError(transport.CodeTimeout, "the %s ended %s", scenarioBudgetOf(ctx), when)
	}
	return scenarioError(transport.CodeCancelled, "the run was interrupted %s", when)
}

// scenarioError is a failure outside any operation.
func scenarioError(code transport.Code, format string, args ...any) *transport.OperationError {
	return transport.NewError("", transport.PhaseExecute, code, transport.RetryNever, transport.NotAttempted, format, args...)
}

// Output logs: a bounded copy of one hook's or the managed server's stdout and stderr,
// kept whatever Env.Log does with the output and stored as a "log" artifact at the end.
// Their sizes are budgets.OutputLog*.
const (
	logBound   = budgets.OutputLogBytes
	logHead    = budgets.OutputLogHead
	logTail    = budgets.OutputLogTail
	scrubSlack = budgets.OutputLogScrubSlack
)

// outputLog is one source's output: a bounded capture that drains never wait on.
type outputLog struct {
	source string // "setup hook", "server", …
	capt   *process.Capture
}

func newOutputLog(source string) *outputLog {
	return &outputLog{source: source, capt: process.NewCapture(logHead+3*scrubSlack, logTail+3*scrubSlack)}
}

// render returns the artifact text: a header naming the source, then the output scrubbed
// by scrub (nil: as it is) and, when it is too long, cut to its first logHead and last
// logTail bytes around a note; cut says so. It is never longer than logBound. ok is false
// when the source wrote nothing.
func (o *outputLog) render(scrub func([]byte) []byte) (data []byte, cut, ok bool) {
	head, tail, total := o.capt.Snapshot()
	if total == 0 {
		return nil, false, false
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "[fastbrowser: %s output, stdout and stderr, %d bytes]\n", o.source, total)
	if gap := total - int64(len(head)+len(tail)); gap == 0 {
		// Everything is here: scrub it whole, then cut if it does not fit.
		all := append(head, tail...)
		if scrub != nil {
			all = scrub(all)
		}
		if b.Len()+len(all) <= logBound {
			b.Write(all)
			return b.Bytes(), false, true
		}
		head, tail = all[:logHead], all[len(all)-logTail:]
	} else {
		// The middle is gone. A secret may straddle either edge of what was captured: its
		// visible part cannot be masked, so the scrub runs over the head and tail with their
		// slack and then drops the edge it may be in (at most 3*scrubSlack bytes once
		// scrubbed: unmasked bytes stay as they are, each mask is at most twice what it hid).
		if scrub != nil {
			head, tail = scrub(head), scrub(tail)
			head = head[:max(0, len(head)-3*scrubSlack)]
			tail = tail[min(len(tail), 3*scrubSlack):]
		}
		head = head[:min(len(head), logHead)]
		tail = tail[max(0, len(tail)-logTail):]
	}
	b.Write(head)
	fmt.Fprintf(&b, "\n[fastbrowser: output cut: %d bytes in all; the first and last parts are kept]\n", total)
	b.Write(tail)
	return b.Bytes(), true, true
}
