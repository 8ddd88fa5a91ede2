package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// requireDaemonsGone checks, at once (Run must not return before they are gone), that no pid
// lives, and kills any that does so one failure does not leak.
func requireDaemonsGone(t *testing.T, what string, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if proctest.Alive(pid) {
			t.Errorf("%s: pid %d, which left the process group, outlived the run", what, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// daemonScenario: a setup hook and a managed server (sh) that both leave daemons, the
// server then serving the fixture, and ops as the operations.
func daemonScenario(t *testing.T, id string, ops []any) (l *Loaded, dir, addr, base string) {
	bin, addr, base := managedFixture(t)
	dir = t.TempDir()
	l = load(t, map[string]any{
		"version": 1, "id": id,
		"hooks": map[string]any{"setup": map[string]any{"command": "/bin/sh", "args": []string{"-c", proctest.LeaveDaemons(dir, "hook")}}},
		"fixture": map[string]any{"baseUrl": base, "server": map[string]any{
			"mode":      "managed",
			"start":     map[string]any{"command": "/bin/sh", "args": []string{"-c", proctest.LeaveDaemons(dir, "server") + fmt.Sprintf("exec %s fixture serve --addr %s", bin, addr)}},
			"readiness": map[string]any{"url": base + "/health"},
		}},
		"operations": ops,
	})
	return l, dir, addr, base
}

// TestServerAndHookDaemonsStopped: whatever a managed server or a hook left running outside
// its process group (setsid, a double-forked daemon) is gone when Run returns.
func TestServerAndHookDaemonsStopped(t *testing.T) {
	l, dir, addr, _ := daemonScenario(t, "daemons", []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}}})
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusPassed {
		t.Fatalf("status %s: %+v %+v", rep.Status, rep.Error, rep.Operations)
	}
	requireDaemonsGone(t, "setup hook", proctest.DaemonPids(t, dir, "hook"))
	requireDaemonsGone(t, "server", proctest.DaemonPids(t, dir, "server"))
	if procs := fixtureProcs(addr); len(procs) != 0 {
		t.Fatalf("fixture still serving: %v", procs)
	}
	proctest.ReapAdoptedOrphans(append(proctest.DaemonPids(t, dir, "hook"), proctest.DaemonPids(t, dir, "server")...)...)
}

// TestInterruptStopsServerDaemons: a run interrupted (its context cancelled, as the first
// Ctrl-C does) in the middle of an operation still ends the server's daemons (and the setup
// hook's, which went when the hook ended).
func TestInterruptStopsServerDaemons(t *testing.T) {
	slow := map[string]any{"op": "navigate", "request": map[string]any{"url": "/slow?ms=9000"}}
	l, dir, _, base := daemonScenario(t, "daemons-interrupted", []any{slow})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancel once the browser's navigation reached the server: mid-operation.
		client := &http.Client{Timeout: time.Second}
		proctest.PollUntil(30*time.Second, func() bool {
			resp, err := client.Get(base + "/counter")
			if err != nil {
				return false
			}
			defer resp.Body.Close()
			var c struct{ Hits int }
			_ = json.NewDecoder(resp.Body).Decode(&c)
			return c.Hits > 0
		})
		cancel()
	}()
	opened := 0
	rep := Run(ctx, l, countingEnv(t, &opened))
	if rep.Status != StatusInterrupted || len(rep.Operations) == 0 || rep.Operations[0].Error == nil ||
		rep.Operations[0].Error.Code != transport.CodeCancelled {
		t.Fatalf("status %s, error %+v, operations %+v", rep.Status, rep.Error, rep.Operations)
	}
	requireDaemonsGone(t, "setup hook", proctest.DaemonPids(t, dir, "hook"))
	requireDaemonsGone(t, "server", proctest.DaemonPids(t, dir, "server"))
	proctest.ReapAdoptedOrphans(append(proctest.DaemonPids(t, dir, "hook"), proctest.DaemonPids(t, dir, "server")...)...)
}
