package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionWorkerCrashEnds: a session whose worker dies cannot run another operation, so
// it ends as crashed (docs/sessions.md: "the browser (or its worker) died under the
// session"): the do that found it fails, list says ended (crashed), the next do answers
// session_ended, and the browser, proxy and profile go instead of waiting for the idle
// deadline.
func TestSessionWorkerCrashEnds(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/form")
	procs := s.procsOf(id)
	worker := 0
	for pid := range procs.below {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if bytes.Contains(b, []byte("\x00worker\x00")) {
			worker = pid
		}
	}
	if worker == 0 {
		t.Fatalf("no worker (a process running the worker subcommand) below host %d", procs.host)
	}
	if err := syscall.Kill(worker, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !proctest.PollUntil(sessionEndLimit, func() bool { return !runtimetest.PidAlive(worker) }) {
		t.Fatalf("worker %d outlived its SIGKILL", worker)
	}

	s.do(id, `{"op":"read"}`).want(t, "the do that finds the worker gone", 1, sessions.CodeOperationFailed)
	var entry map[string]any
	if !proctest.PollUntil(sessionEndLimit, func() bool {
		entry = s.listed(id)
		return entry != nil && entry["state"] == sessions.StateEnded
	}) {
		t.Fatalf("the session with a dead worker is still open: %v", entry)
	}
	if entry["reason"] != sessions.EndCrashed {
		t.Errorf("list: %v; want state ended, reason crashed", entry)
	}
	procs.requireGone(t)
	s.do(id, `{"op":"read"}`).want(t, "do after the worker died", 1, sessions.CodeEnded)
}
