package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// These tests inject faults with a shell script standing in for the worker: what they check
// needs a real process (its exit status, its process group), not a browser.

const readyScript = `echo '{"v":1,"ready":{"protocol":1,"browser":"Fake/1"}}'; `

func startScript(t *testing.T, script string) (*workerProc, error) {
	t.Helper()
	return startWorker(context.Background(), "/bin/sh", []string{"-c", script}, nil)
}

// reaped says pid is gone, not even a zombie. (This internal test cannot use
// runtimetest.PidAlive: runtimetest imports runtime.)
func reaped(pid int) bool { return syscall.Kill(pid, 0) == syscall.ESRCH }

func wantWorkerError(t *testing.T, err error, code transport.Code, ms transport.MutationState, msg string) {
	t.Helper()
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != code || oe.MutationState != ms || oe.Message != msg {
		t.Fatalf("want %s/%s %q, got %#v", code, ms, msg, err)
	}
}

// TestWorkerExitFailsCall: a worker that dies while a call is in flight fails it
// worker_crashed/unknown, with how it exited in the message, and Close after that is clean.
func TestWorkerExitFailsCall(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{`read -r line; kill -KILL $$`, "the worker exited (signal: killed)"},
		{`read -r line; exit 3`, "the worker exited (exit code 3)"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			w, err := startScript(t, readyScript+tc.script)
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.Call(context.Background(), &transport.CloseTab{Tab: "T"}, nil)
			wantWorkerError(t, err, transport.CodeWorkerCrashed, transport.Unknown, tc.want)
			if err := w.Close(); err != nil {
				t.Fatalf("Close after the exit: %v", err)
			}
			if !reaped(w.Pid()) {
				t.Fatalf("worker %d still alive", w.Pid())
			}
		})
	}
}

// TestWorkerBrokeProtocolIsKilled: a worker that writes a line that is not a response fails
// the call protocol_error and is killed, though it would have lived on.
func TestWorkerBrokeProtocolIsKilled(t *testing.T) {
	w, err := startScript(t, readyScript+`read -r line; echo garbage; exec sleep 600`)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_, err = w.Call(context.Background(), &transport.CloseTab{Tab: "T"}, nil)
	wantWorkerError(t, err, transport.CodeProtocolError, transport.Unknown, "the worker wrote a line that is not a protocol v1 response")
	select {
	case <-w.proc.Done():
	case <-time.After(budgets.Request().Default):
		t.Fatal("the worker that broke the protocol was not stopped")
	}
	if sig := w.proc.Signal(); sig != "killed" {
		t.Fatalf("the worker ended by %q, want SIGKILL", sig)
	}
}

// TestWorkerNotReadyIsStopped: a worker that is not ready, or cannot start, is refused and
// leaves no process behind.
func TestWorkerNotReadyIsStopped(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := startScript(t, `echo $$ > `+pidFile+`; echo 'Segmentation fault'; exec sleep 600`)
	wantWorkerError(t, err, transport.CodeProtocolError, transport.NotAttempted, "the worker's first line is not a protocol v1 ready frame")
	b, rerr := os.ReadFile(pidFile)
	pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if rerr != nil || perr != nil {
		t.Fatalf("pid file: %v %v", rerr, perr)
	}
	if !reaped(pid) {
		t.Fatalf("worker %d still alive", pid)
	}

	_, err = startWorker(context.Background(), filepath.Join(t.TempDir(), "no-such-worker"), nil, nil)
	wantWorkerError(t, err, transport.CodeLaunchFailed, transport.NotAttempted, "the worker could not be started")
}
