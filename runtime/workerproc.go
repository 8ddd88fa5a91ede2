package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/internal/cdpgate"
	"github.com/fastbrowser/fastbrowser/runtime/process"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/wire"
)

// workerProc is the session's worker: a process this runtime owns, spoken to through a
// wire.Conn over its stdin and stdout.
type workerProc struct {
	*wire.Conn
	proc *process.Process
}

// startWorker starts the worker and waits for its ready frame within the worker-readiness
// budget. path is the executable, used exactly as given (never looked up on PATH); empty
// means this binary itself (os.Executable) with the "worker" subcommand before args. log
// receives the worker's stderr (nil discards). On any failure the worker's process group
// is stopped before returning.
func startWorker(ctx context.Context, path string, args []string, log io.Writer) (*workerProc, error) {
	proc, err := spawnWorker(path, args, log)
	if err != nil {
		return nil, err
	}
	return connectWorker(ctx, proc)
}

// spawnWorker starts the worker's process (startWorker's first half); extra are its fds 3, ….
func spawnWorker(path string, args []string, log io.Writer, extra ...*os.File) (*process.Process, error) {
	if path == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "cannot find this executable to start the worker").WithCause(err)
		}
		path, args = self, append([]string{"worker"}, args...)
	}
	proc, err := process.Start(process.Spec{Path: path, Args: args, Stdin: true, Stdout: true, OutputSink: log, ExtraFiles: extra})
	if err != nil {
		return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the worker could not be started").WithCause(err)
	}
	return proc, nil
}

// connectWorker waits for a started worker's ready frame (startWorker's second half); on
// failure the worker is stopped.
func connectWorker(ctx context.Context, proc *process.Process) (*workerProc, error) {
	conn, err := wire.NewConn(ctx, proc.Stdout, proc.Stdin, wire.ConnOptions{
		// The worker's output ends when it dies: its exit says how.
		Gone:   func() string { <-proc.Done(); return "the worker exited (" + exitDescription(proc) + ")" },
		Broken: func() { _ = proc.Kill() },
	})
	if err != nil {
		_ = proc.Kill()
		return nil, err
	}
	return &workerProc{Conn: conn, proc: proc}, nil
}

// earlyWorker is a worker started with --await-browser before the session's browser is up
// (Open launches it meanwhile): it waits for the browser's endpoint on its input.
type earlyWorker struct {
	proc *process.Process
	// gateEnd is our end of the worker's private socket to a launched browser (nil when
	// the browser is attached by URL): the browser's gate serves it once the browser is up.
	gateEnd *os.File
}

// spawnEarlyWorker starts fastbrowser's own worker with --await-browser; with socket, it
// inherits one end of a private socket as fd 3 (workerSocketFd).
func spawnEarlyWorker(opts Options, args []string, socket bool) (*earlyWorker, error) {
	args = append(append(append([]string{}, opts.WorkerArgs...), args...), "--await-browser")
	if !socket {
		proc, err := spawnWorker(opts.WorkerPath, args, opts.Log)
		if err != nil {
			return nil, err
		}
		return &earlyWorker{proc: proc}, nil
	}
	gateEnd, workerEnd, err := cdpgate.Socketpair()
	if err != nil {
		return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "cannot make the worker's socket to the browser").WithCause(err)
	}
	proc, err := spawnWorker(opts.WorkerPath, args, opts.Log, workerEnd)
	_ = workerEnd.Close() // the worker has its copy
	if err != nil {
		_ = gateEnd.Close()
		return nil, err
	}
	return &earlyWorker{proc: proc, gateEnd: gateEnd}, nil
}

// workerSocketFd is where the worker finds its socket: the first of its ExtraFiles.
const workerSocketFd = 3

// browserEndpoint is the line the worker waits for (worker/awaitbrowser.go reads it).
type browserEndpoint struct {
	CDPURL string `json:"cdpUrl,omitempty"`
	CDPFd  int    `json:"cdpFd,omitempty"`
}

// connect gives the worker its browser — launched: its gate serves the worker's socket;
// attached: the URL — and waits for its ready frame. It stops the worker on failure.
func (e *earlyWorker) connect(ctx context.Context, launched *chromium.Browser, cdpURL string) (*workerProc, error) {
	end := browserEndpoint{CDPURL: cdpURL}
	var err error
	if launched != nil {
		if e.gateEnd == nil {
			err = errors.New("the worker was started without a socket to the browser")
		} else {
			err = launched.Serve(ctx, e.gateEnd)
			e.gateEnd = nil // Serve owns it
		}
		end = browserEndpoint{CDPFd: workerSocketFd}
	}
	var line []byte
	if err == nil {
		line, err = json.Marshal(end)
	}
	if err == nil {
		_, err = e.proc.Stdin.Write(append(line, '\n'))
	}
	if err != nil {
		e.stop()
		return nil, transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the worker could not be given its browser").WithCause(err)
	}
	return connectWorker(ctx, e.proc)
}

// stop ends a worker that was never given its browser: its input ends, which ends it.
func (e *earlyWorker) stop() {
	if e.gateEnd != nil {
		_ = e.gateEnd.Close()
	}
	_ = e.proc.Stdin.Close()
	_ = e.proc.Stop(budgets.ProcessStopGrace().Default)
}

func exitDescription(p *process.Process) string {
	if sig := p.Signal(); sig != "" {
		return "signal: " + sig
	}
	return "exit code " + strconv.Itoa(p.ExitCode())
}

// Pid is the worker's process id (for tests and diagnostics).
func (w *workerProc) Pid() int { return w.proc.Pid() }

// Close asks the worker to close (bounded by the request budget) and ends its input, then
// stops its process group: a grace period to exit, then TERM, a grace period, KILL. It
// waits for teardown.
func (w *workerProc) Close() error {
	_ = w.Conn.Close()
	select {
	case <-w.proc.Done():
	case <-time.After(budgets.ProcessStopGrace().Default):
	}
	return w.proc.Stop(budgets.ProcessStopGrace().Default)
}
