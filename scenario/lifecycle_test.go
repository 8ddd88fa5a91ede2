package scenario

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// managedFixture is the built binary serving the fixture site on a free loopback port, as
// a managed server's start command; base is its URL.
func managedFixture(t *testing.T) (bin, addr, base string) {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	base = freeURL(t)
	return bin, strings.TrimPrefix(base, "http://"), base
}

// fixtureProcs lists live processes whose command line serves the fixture on addr.
func fixtureProcs(addr string) map[int]string {
	return proctest.Cmdlines("fixture serve --addr " + addr)
}

// diagnosticsEnv is countingEnv with a store and run id for the scenario's diagnostics and
// a scrub that masks secret.
func diagnosticsEnv(t *testing.T, opened *int, id, secret string) (Env, *artifacts.Store) {
	env := countingEnv(t, opened)
	store, err := artifacts.Open(filepath.Join(t.TempDir(), "artifacts"), id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	env.Store, env.RunID = store, "run-1"
	env.Scrub = func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(secret), []byte("[secret]")) }
	return env, store
}

func readArtifact(t *testing.T, store *artifacts.Store, m artifacts.Meta) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(store.Root(), m.Path))
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != m.Bytes || m.Kind != "log" || m.ContentType != "text/plain; charset=utf-8" {
		t.Fatalf("artifact %+v holds %d bytes", m, len(data))
	}
	return string(data)
}

// TestManagedLifecycleOrder is acceptance B1: hooks and a managed server in the documented
// order whether the operations pass or fail, or the server never becomes ready; the
// cleanup hook proves the server still answers while it runs; the server is stopped last;
// and each hook's and the server's output is stored, scrubbed, as a diagnostics artifact.
func TestManagedLifecycleOrder(t *testing.T) {
	const secret = "hunter2-very-secret"
	passing := []any{
		map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "About the fixture"}},
	}
	failing := []any{
		map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}},
		map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "Nope", "wait": "none"}},
		map[string]any{"op": "read"},
	}
	for _, c := range []struct {
		name       string
		readiness  string // path on the fixture
		operations []any
		status     string
		events     string
		hooks      string // what the hooks wrote, in order
	}{
		{"passes", "/health", passing, StatusPassed,
			"hook.setup:ok server.start:ok server.ready:ok hook.reset:ok runtime.open:ok runtime.close:ok hook.cleanup:ok server.stop:ok",
			"setup reset cleanup-saw-200"},
		{"operation-fails", "/health", failing, StatusFailed,
			"hook.setup:ok server.start:ok server.ready:ok hook.reset:ok runtime.open:ok runtime.close:ok hook.cleanup:ok server.stop:ok",
			"setup reset cleanup-saw-200"},
		{"never-ready", "/status/503", passing, StatusError,
			"hook.setup:ok server.start:ok server.ready:failed hook.cleanup:ok server.stop:ok",
			"setup cleanup-saw-200"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bin, addr, base := managedFixture(t)
			host, port, _ := strings.Cut(addr, ":")
			hookLog := filepath.Join(t.TempDir(), "hooks")
			hook := func(name string) map[string]any {
				return map[string]any{"command": "/bin/sh", "args": []string{"-c", fmt.Sprintf(
					"echo %s >> %s; echo %s hook says $TOKEN; echo %s hook on stderr >&2", name, hookLog, name, name)},
					"env": map[string]any{"TOKEN": secret}}
			}
			// The cleanup hook GETs /health itself (bash's /dev/tcp: no curl needed) and
			// writes the status it got, so the log proves whether the server still ran.
			cleanup := map[string]any{"command": "/bin/bash", "args": []string{"-c", fmt.Sprintf(
				`exec 3<>/dev/tcp/%s/%s || { echo cleanup-no-server >> %s; exit 0; }
printf 'GET /health HTTP/1.0\r\nHost: %s\r\n\r\n' >&3
read -r _ code _ <&3
echo cleanup-saw-$code >> %s; echo cleanup hook says $TOKEN`, host, port, hookLog, addr, hookLog)},
				"env": map[string]any{"TOKEN": secret}}
			id := "lifecycle-" + c.name
			// A ready server answers at once, so its readiness budget is generous (a loaded CI
			// machine can take a while to start the binary). The never-ready case waits its
			// budget out, and the binary must be up within it too (the error says what it
			// answered, the cleanup hook and the server log need it running): 5 s.
			readinessMs := budgets.FixtureReadiness().Default.Milliseconds()
			if c.status == StatusError {
				readinessMs = 5000
			}
			l := load(t, map[string]any{
				"version": 1, "id": id,
				"fixture": map[string]any{"baseUrl": base, "server": map[string]any{
					"mode":      "managed",
					"start":     map[string]any{"command": bin, "args": []string{"fixture", "serve", "--addr", addr}},
					"readiness": map[string]any{"url": base + c.readiness, "timeoutMs": readinessMs},
				}},
				"hooks":      map[string]any{"setup": hook("setup"), "reset": hook("reset"), "cleanup": cleanup},
				"operations": c.operations,
			})
			opened := 0
			env, store := diagnosticsEnv(t, &opened, id, secret)
			rep := Run(context.Background(), l, env)

			if rep.Status != c.status {
				t.Fatalf("status %s, want %s (error %+v, operations %+v)", rep.Status, c.status, rep.Error, rep.Operations)
			}
			if got := eventNames(rep); got != c.events {
				t.Fatalf("events\n got %s\nwant %s", got, c.events)
			}
			for i := 1; i < len(rep.Events); i++ {
				if rep.Events[i].AtMs < rep.Events[i-1].AtMs {
					t.Fatalf("event times go backwards: %+v", rep.Events)
				}
			}
			data, _ := os.ReadFile(hookLog)
			if got := strings.Join(strings.Fields(string(data)), " "); got != c.hooks {
				t.Fatalf("hooks wrote %q, want %q", got, c.hooks)
			}
			switch c.name {
			case "operation-fails":
				ops := rep.Operations
				if ops[1].Status != StatusFailed || ops[1].Error.Code != transport.CodeAssertionFailed || ops[2].Status != StatusSkipped || rep.Error != nil {
					t.Fatalf("operations %+v error %+v", ops, rep.Error)
				}
			case "never-ready":
				if opened != 0 || rep.Error == nil || rep.Error.Code != transport.CodeFixtureNotReady || !strings.Contains(rep.Error.Message, "answered 503") {
					t.Fatalf("opened %d sessions, error %+v", opened, rep.Error)
				}
			}
			// The server is stopped by the time Run returns: nothing serves the fixture on
			// its address any more, and the port no longer answers.
			if procs := fixtureProcs(addr); len(procs) != 0 {
				t.Fatalf("fixture server still running after Run: %v", procs)
			}
			if probeOnce(context.Background(), base+"/health") != 0 {
				t.Fatal("the fixture port still answers after Run")
			}

			// Diagnostics: one log per source that wrote, in start order, secrets masked.
			sources := []string{"setup hook", "server", "reset hook", "cleanup hook"}
			if c.name == "never-ready" {
				sources = []string{"setup hook", "server", "cleanup hook"}
			}
			if len(rep.Diagnostics) != len(sources) {
				t.Fatalf("diagnostics %+v, want %d", rep.Diagnostics, len(sources))
			}
			for i, m := range rep.Diagnostics {
				text := readArtifact(t, store, m)
				if m.Owner != id || m.Truncated || !strings.HasPrefix(text, "[fastbrowser: "+sources[i]+" output") {
					t.Errorf("diagnostics[%d] %+v: %q", i, m, text)
				}
				if strings.Contains(text, secret) {
					t.Errorf("diagnostics[%d] holds the secret: %q", i, text)
				}
				switch name, _, _ := strings.Cut(sources[i], " "); sources[i] {
				case "server":
					if !strings.Contains(text, "fixture serving on http://"+addr) {
						t.Errorf("server log %q", text)
					}
				default:
					if !strings.Contains(text, name+" hook says [secret]") {
						t.Errorf("%s log %q", name, text)
					}
					if name != "cleanup" && !strings.Contains(text, name+" hook on stderr") {
						t.Errorf("%s log misses stderr: %q", name, text)
					}
				}
			}
		})
	}
}

// shellServerScenario is a scenario whose managed server is `sh -c script`, ready when
// base/health answers, with one navigation.
func shellServerScenario(t *testing.T, id, base, script string) *Loaded {
	t.Helper()
	return load(t, map[string]any{
		"version": 1, "id": id,
		"fixture": map[string]any{"baseUrl": base, "server": map[string]any{
			"mode":      "managed",
			"start":     map[string]any{"command": "/bin/sh", "args": []string{"-c", script}},
			"readiness": map[string]any{"url": base + "/health"},
		}},
		"operations": []any{map[string]any{"op": "navigate", "request": map[string]any{"url": "/about"}}},
	})
}

// TestServerIgnoringTermIsStopped is acceptance B2: a managed server whose leader ignores
// SIGTERM and whose background child (also ignoring it) holds its stdout is gone, its
// whole process group, when Run returns, and the stop is in the report.
func TestServerIgnoringTermIsStopped(t *testing.T) {
	bin, addr, base := managedFixture(t)
	pids := filepath.Join(t.TempDir(), "pids")
	script := fmt.Sprintf(`trap '' TERM
/bin/sleep 300 &
echo $$ $! > %s
%s fixture serve --addr %s &
wait`, pids, bin, addr)
	l := shellServerScenario(t, "ignores-term", base, script)
	opened := 0
	rep := Run(context.Background(), l, countingEnv(t, &opened))
	if rep.Status != StatusPassed {
		t.Fatalf("status %s: %+v %+v", rep.Status, rep.Error, rep.Operations)
	}
	if got, want := eventNames(rep), "server.start:ok server.ready:ok runtime.open:ok runtime.close:ok server.stop:ok"; got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	data, err := os.ReadFile(pids)
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data))
	if len(f) != 2 {
		t.Fatalf("pids file %q", data)
	}
	leader, _ := strconv.Atoi(f[0])
	sleeper, _ := strconv.Atoi(f[1])
	// Checked at once, with no grace: Run must not return before the group is gone.
	if live := proctest.LiveMembers(leader); len(live) != 0 {
		t.Fatalf("process group %d still has live members after Run: %v", leader, live)
	}
	if proctest.Alive(sleeper) || proctest.Alive(leader) {
		t.Fatalf("leader %d or background child %d still alive after Run", leader, sleeper)
	}
	if procs := fixtureProcs(addr); len(procs) != 0 {
		t.Fatalf("fixture still serving: %v", procs)
	}
	proctest.ReapAdoptedOrphans()
}

// TestChattyServerStartsAndIsLogged is acceptance B3: a server that writes 256 KB to
// stderr before it is ready starts normally (its output never blocks it), and its
// diagnostics artifact is bounded, marked truncated, and keeps the start and the end.
func TestChattyServerStartsAndIsLogged(t *testing.T) {
	bin, addr, base := managedFixture(t)
	script := fmt.Sprintf(`/usr/bin/head -c 262144 /dev/zero | /usr/bin/tr '\0' x >&2; echo >&2; exec %s fixture serve --addr %s`, bin, addr)
	l := shellServerScenario(t, "chatty", base, script)
	opened := 0
	env, store := diagnosticsEnv(t, &opened, "chatty", "never-appears")
	rep := Run(context.Background(), l, env)
	if rep.Status != StatusPassed {
		t.Fatalf("status %s: %+v %+v", rep.Status, rep.Error, rep.Operations)
	}
	if len(rep.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v", rep.Diagnostics)
	}
	m := rep.Diagnostics[0]
	text := readArtifact(t, store, m)
	if !m.Truncated || m.Bytes > logBound || m.Bytes < logHead+logTail {
		t.Fatalf("meta %+v, want truncated and %d-%d bytes", m, logHead+logTail, logBound)
	}
	if !strings.HasPrefix(text, "[fastbrowser: server output, stdout and stderr, ") || !strings.Contains(text, "xxxxxxxx") ||
		!strings.Contains(text, "[fastbrowser: output cut: ") || !strings.Contains(text, "fixture serving on http://"+addr) {
		t.Fatalf("log %.200q … %q", text, text[max(0, len(text)-200):])
	}
}

// every lists from, from+step, … up to last.
func every(step, from, last int) []int {
	var at []int
	for i := from; i <= last; i += step {
		at = append(at, i)
	}
	return at
}

// The output log's scrub runs before any cut, and a secret that straddles an edge of what
// was captured is dropped with that edge: no part of it long enough to matter survives.
func TestOutputLogNeverKeepsPartOfASecret(t *testing.T) {
	const secret = "S3CRET-value-0123456789-ABCDEFGHIJ"
	scrub := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(secret), []byte("[secret]")) }
	headCap, tailCap := logHead+3*scrubSlack, logTail+3*scrubSlack
	for _, c := range []struct {
		name  string
		total int
		at    []int // where copies of the secret start
	}{
		{"short", 1000, []int{10, 500}},
		{"whole-but-cut", logBound, []int{0, logBound - len(secret)}},
		{"straddles-edges", 400_000, []int{5, logHead - 10, headCap - 10, 400_000 - tailCap - 10, 400_000 - logTail - 10, 400_000 - len(secret)}},
		{"straddles-cut", headCap + tailCap, []int{logHead - 10, headCap + tailCap - logTail - 10}},
		// So many masks that the scrubbed head and tail shrink below logHead and logTail:
		// what was captured at the very edges would be kept if the edges were not dropped.
		{"many", headCap + tailCap + 60*4000, every(60, (headCap-10)%60, headCap+tailCap+60*4000-len(secret))},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := bytes.Repeat([]byte("ab\n"), c.total/3+1)[:c.total]
			for _, at := range c.at {
				copy(raw[at:], secret)
			}
			o := newOutputLog("test")
			// Chunks of odd sizes, as drains deliver them.
			for rest := raw; len(rest) > 0; {
				n := min(len(rest), 7919)
				_, _ = o.capt.Write(rest[:n])
				rest = rest[n:]
			}
			data, cut, ok := o.render(scrub)
			if !ok || len(data) > logBound {
				t.Fatalf("ok %v, %d bytes", ok, len(data))
			}
			if cut != (c.total > logBound-100) {
				t.Errorf("cut = %v for %d bytes", cut, c.total)
			}
			for i := 0; i+4 <= len(secret); i++ {
				for j := i + 4; j <= len(secret); j++ {
					if bytes.Contains(data, []byte(secret[i:j])) {
						t.Fatalf("the log holds %q, part of the secret", secret[i:j])
					}
				}
			}
			if !bytes.Contains(data, []byte("[secret]")) {
				t.Error("no secret masked at all")
			}
			if !cut && !bytes.Equal(data[bytes.IndexByte(data, '\n')+1:], scrub(raw)) {
				t.Error("an uncut log is not the whole scrubbed output")
			}
		})
	}
	// Nothing written: nothing to store.
	if _, _, ok := newOutputLog("quiet").render(nil); ok {
		t.Error("an empty log rendered")
	}
}

// An interrupt (the run's context cancelled) during the setup hook stops the hook's whole
// group at once, reports the scenario interrupted with code cancelled (not a budget
// timeout), and still runs the cleanup hook.
func TestInterruptDuringSetupHook(t *testing.T) {
	dir := t.TempDir()
	started, cleaned := filepath.Join(dir, "started"), filepath.Join(dir, "cleaned")
	l := load(t, map[string]any{
		"version": 1, "id": "interrupted-setup",
		"hooks": map[string]any{
			"setup":   map[string]any{"command": "/bin/sh", "args": []string{"-c", "/bin/sleep 300 & echo $! > " + started + "; wait"}},
			"cleanup": map[string]any{"command": "/bin/sh", "args": []string{"-c", "touch " + cleaned}},
		},
		"operations": []any{map[string]any{"op": "read"}},
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		proctest.PollUntil(10*time.Second, func() bool { _, err := os.Stat(started); return err == nil })
		time.Sleep(50 * time.Millisecond) // the pid is written; let the shell reach wait
		cancel()
	}()
	opened := 0
	rep := Run(ctx, l, countingEnv(t, &opened))
	if rep.Status != StatusInterrupted || rep.Error == nil || rep.Error.Code != transport.CodeCancelled || !strings.Contains(rep.Error.Message, "setup hook") {
		t.Fatalf("status %s error %+v", rep.Status, rep.Error)
	}
	if got, want := eventNames(rep), "hook.setup:failed hook.cleanup:ok"; got != want || opened != 0 {
		t.Fatalf("events %s (want %s), %d sessions", got, want, opened)
	}
	if _, err := os.Stat(cleaned); err != nil {
		t.Fatal("the cleanup hook did not run after the interrupt")
	}
	data, _ := os.ReadFile(started)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 1 || proctest.Alive(pid) {
		t.Fatalf("the setup hook's background sleep (%d) survived", pid)
	}
	proctest.ReapAdoptedOrphans()
}
