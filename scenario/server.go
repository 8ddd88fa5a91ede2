package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// startServer brings the fixture up: for a managed server it refuses a port already
// answering (unless reuseExisting), starts the trusted argv in its own process group and
// waits for readiness; for an external one it only waits for readiness.
func startServer(ctx context.Context, s *Server, dir string, lookup func(string) (string, bool), log io.Writer) (*fixtureServer, error) {
	want := s.Readiness.ExpectedStatus
	if want == 0 {
		want = 200
	}
	timeout, _ := budgets.FixtureReadiness.ResolveMs(s.Readiness.TimeoutMs)
	fs := &fixtureServer{}
	if s.Mode == ModeManaged {
		if probeOnce(ctx, s.Readiness.URL) != 0 {
			if s.ReuseExisting {
				return fs, nil
			}
			return nil, scenarioError(transport.CodeFixturePortInUse, "something already answers %s; stop it or set reuseExisting", s.Readiness.URL)
		}
		proc, err := startCommand(s.Start, dir, lookup, log)
		if err != nil {
			return nil, scenarioError(transport.CodeFixtureNotReady, "the fixture server could not be started: %s", err.Error())
		}
		fs.proc = proc
	}
	var exited <-chan struct{}
	if fs.proc != nil {
		exited = fs.proc.Done()
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	last, err := waitReady(rctx, s.Readiness.URL, want, exited)
	if err == nil {
		return fs, nil
	}
	fs.stop()
	switch {
	case errors.Is(err, errServerExited):
		return nil, scenarioError(transport.CodeFixtureNotReady, "the fixture server exited (%s) before %s was ready", exitOf(fs.proc), s.Readiness.URL)
	case last == 0:
		return nil, scenarioError(transport.CodeFixtureNotReady, "%s did not answer within %s", s.Readiness.URL, timeout)
	}
	return nil, scenarioError(transport.CodeFixtureNotReady, "%s answered %d, expected %d, within %s", s.Readiness.URL, last, want, timeout)
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

// stop ends a managed server: TERM to its process group, a grace period, then KILL.
func (fs *fixtureServer) stop() error {
	if fs == nil || fs.proc == nil {
		return nil
	}
	return fs.proc.Stop(budgets.ProcessStopGrace.Default)
}

// startCommand starts trusted argv: the program is found on PATH only when it has no slash
// (like exec.Command), relative paths resolve against dir, and no shell is involved.
func startCommand(c *Command, dir string, lookup func(string) (string, bool), log io.Writer) (*process.Process, error) {
	cwd := dir
	if c.Cwd != "" {
		cwd = c.Cwd
		if !filepath.IsAbs(cwd) {
			cwd = filepath.Join(dir, cwd)
		}
	}
	prog := c.Command
	if strings.ContainsRune(prog, '/') {
		if !filepath.IsAbs(prog) {
			prog = filepath.Join(cwd, prog)
		}
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
	return process.Start(process.Spec{Path: prog, Args: c.Args, Dir: cwd, Env: env, OutputSink: log})
}

// runHook runs a one-shot hook within its budget (and the scenario's, via ctx).
func runHook(ctx context.Context, name string, c *Command, dir string, lookup func(string) (string, bool), log io.Writer) error {
	timeout, _ := budgets.Hook.ResolveMs(c.TimeoutMs)
	proc, err := startCommand(c, dir, lookup, log)
	if err != nil {
		return scenarioError(transport.CodeHookFailed, "%s hook could not start: %s", name, err.Error())
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-proc.Done():
	case <-timer.C:
		_ = proc.Stop(budgets.ProcessStopGrace.Default)
		return scenarioError(transport.CodeHookFailed, "%s hook did not finish within %s", name, timeout)
	case <-ctx.Done():
		_ = proc.Stop(budgets.ProcessStopGrace.Default)
		return scenarioError(transport.CodeTimeout, "the scenario budget ran out during the %s hook", name)
	}
	// The hook itself exited; anything it left in its process group goes too.
	_ = proc.Stop(0)
	if code := proc.ExitCode(); code != 0 {
		return scenarioError(transport.CodeHookFailed, "%s hook failed (%s)", name, exitOf(proc))
	}
	return nil
}

// scenarioError is a failure outside any operation.
func scenarioError(code transport.Code, format string, args ...any) *transport.OperationError {
	return transport.NewError("", transport.PhaseExecute, code, transport.RetryNever, transport.NotAttempted, format, args...)
}
