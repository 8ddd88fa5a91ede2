package scenario

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// testServer is one managed-server spec for the test binary's server (serveTestServer).
type testServer struct {
	addr, base, starts string
	tag                string // FB_TEST_SERVER_TAG: a different tag is a different server
	readiness          map[string]any
}

func newTestServer(t *testing.T) *testServer {
	base := freeURL(t)
	return &testServer{addr: strings.TrimPrefix(base, "http://"), base: base, starts: filepath.Join(t.TempDir(), "starts"), tag: "one",
		readiness: map[string]any{"url": base + "/health"}}
}

// scenario is a scenario file using the server, loaded in dir (so every file of a test
// resolves the server's cwd alike).
func (ts *testServer) scenario(t *testing.T, dir, id string, ops ...any) *Loaded {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := load(t, map[string]any{
		"version": 1, "id": id,
		"fixture": map[string]any{"baseUrl": ts.base, "server": map[string]any{
			"mode": "managed",
			"start": map[string]any{"command": exe, "args": []string{testServerArg, ts.addr},
				"env": map[string]any{"FB_TEST_SERVER_STARTS": ts.starts, "FB_TEST_SERVER_TAG": ts.tag}},
			"readiness": ts.readiness,
		}},
		"operations": ops,
	})
	l.Dir = dir
	return l
}

// startCount is how many times the server was started; pids are those processes.
func (ts *testServer) started(t *testing.T) (pids []int) {
	t.Helper()
	data, err := os.ReadFile(ts.starts)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, f := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if pid, err := strconv.Atoi(strings.TrimPrefix(f, "start ")); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// requireStopped: no process of the server lives once the run returned.
func (ts *testServer) requireStopped(t *testing.T) {
	t.Helper()
	for _, pid := range ts.started(t) {
		if proctest.Alive(pid) {
			t.Errorf("server pid %d outlived the run", pid)
		}
	}
	if procs := proctest.Cmdlines(testServerArg + " " + ts.addr); len(procs) != 0 {
		t.Errorf("server processes left: %v", procs)
	}
}

// runOnce runs loaded (all using ts) in a suite of jobs with ctx, and checks that the server
// was started once and is gone when the run returns; the caller closes the suite.
func (ts *testServer) runOnce(t *testing.T, ctx context.Context, loaded []*Loaded, jobs int) (*Suite, *Report) {
	t.Helper()
	s := suiteOf(t, loaded, jobs, nil)
	rep := s.Run(ctx)
	ts.requireStopped(t)
	if n := len(ts.started(t)); n != 1 {
		t.Errorf("the server was started %d times, want once", n)
	}
	return s, rep
}

func navigate(url string) map[string]any {
	return map[string]any{"op": "navigate", "request": map[string]any{"url": url}}
}

func assertTitle(title string) map[string]any {
	return map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": title}}
}

// serverEvents is a report's server events.
func serverEvents(sr ScenarioReport) string {
	var s []string
	for _, e := range sr.Events {
		if e.Kind == "server" {
			s = append(s, e.Name+":"+e.Status)
		}
	}
	return strings.Join(s, " ")
}

// TestSharedServerStartsOnceForAllJobs is item 1 of issue 11: five files naming one managed
// server start it once, for --jobs 2; two of them meet on the server (each sees "met" only
// if both were in it at the same time); the last one fails its assertion; the server is
// stopped and reaped when the run returns, and every report lists its events and its log.
func TestSharedServerStartsOnceForAllJobs(t *testing.T) {
	ts, dir := newTestServer(t), t.TempDir()
	meet := func(who string) []any {
		// Two waits: the other scenario may take a while to open its session on a loaded machine.
		return []any{navigate("/meet?who=" + who), navigate("/meet?who=" + who), assertTitle("met")}
	}
	loaded := []*Loaded{
		ts.scenario(t, dir, "meet-a", meet("a")...), ts.scenario(t, dir, "meet-b", meet("b")...),
		ts.scenario(t, dir, "home-c", navigate("/"), assertTitle("home")),
		ts.scenario(t, dir, "home-d", navigate("/"), assertTitle("home")),
		ts.scenario(t, dir, "fails-e", navigate("/"), assertTitle("not the title")),
	}
	s := suiteOf(t, loaded, 2, nil)
	defer s.Close()
	if plan := s.Servers(); len(plan.Shared) != 1 || plan.Shared[0] != (SharedServer{Address: ts.addr, Scenarios: 5}) || len(plan.Turns) != 0 {
		t.Fatalf("plan %+v", plan)
	}
	rep := s.Run(context.Background())
	ts.requireStopped(t)
	if n := len(ts.started(t)); n != 1 {
		t.Errorf("the server was started %d times, want once", n)
	}
	starts, stops := 0, 0
	for _, sr := range rep.Scenarios {
		want := StatusPassed
		if sr.ID == "fails-e" {
			want = StatusFailed
		}
		if sr.Status != want {
			t.Errorf("%s: %s, want %s: %+v %+v", sr.ID, sr.Status, want, sr.Error, sr.Operations)
		}
		ev := serverEvents(sr)
		starts += strings.Count(ev, "start:ok")
		stops += strings.Count(ev, "stop:ok")
		if !strings.HasPrefix(ev, "start:ok ready:ok") && !strings.HasPrefix(ev, "start:shared ready:ok") {
			t.Errorf("%s: server events %q", sr.ID, ev)
		}
		if len(sr.Diagnostics) != 1 {
			t.Errorf("%s: diagnostics %+v, want the shared server's log", sr.ID, sr.Diagnostics)
			continue
		}
		if log := readArtifact(t, s.stores.stores[sr.ID], sr.Diagnostics[0]); !strings.Contains(log, "shared server output") || !strings.Contains(log, "shared test server on "+ts.addr) {
			t.Errorf("%s: log %q", sr.ID, log)
		}
	}
	if starts != 1 || stops != 1 {
		t.Errorf("%d scenarios report starting the server and %d stopping it, want 1 and 1", starts, stops)
	}
}

// TestDifferentServersOnOneAddressTakeTurns: two files naming different servers (another
// env value) on one address run one at a time, each with its own server, at --jobs 2: at
// the same time the second would find the port in use.
func TestDifferentServersOnOneAddressTakeTurns(t *testing.T) {
	one, dir := newTestServer(t), t.TempDir()
	two := *one
	two.tag = "two"
	loaded := []*Loaded{
		one.scenario(t, dir, "one", navigate("/"), assertTitle("home")),
		two.scenario(t, dir, "two", navigate("/"), assertTitle("home")),
	}
	s := suiteOf(t, loaded, 2, nil)
	defer s.Close()
	if plan := s.Servers(); len(plan.Shared) != 0 || len(plan.Turns) != 1 || plan.Turns[0] != (AddressTurns{Address: one.addr, Scenarios: 2, Servers: 2}) {
		t.Fatalf("plan %+v", plan)
	}
	rep := s.Run(context.Background())
	one.requireStopped(t)
	for _, sr := range rep.Scenarios {
		if sr.Status != StatusPassed || serverEvents(sr) != "start:ok ready:ok stop:ok" {
			t.Errorf("%s: %s %+v, server events %q", sr.ID, sr.Status, sr.Error, serverEvents(sr))
		}
	}
	if n := len(one.started(t)); n != 2 {
		t.Errorf("%d server starts, want one per scenario", n)
	}
}

// TestSharedServerNeverReady: a shared server that never answers the expected status makes
// every scenario using it error fixture_not_ready with the server's log, and is started once.
func TestSharedServerNeverReady(t *testing.T) {
	ts, dir := newTestServer(t), t.TempDir()
	ts.readiness = map[string]any{"url": ts.base + "/health", "expectedStatus": 418, "timeoutMs": 2000}
	var loaded []*Loaded
	for _, id := range []string{"a", "b", "c"} {
		loaded = append(loaded, ts.scenario(t, dir, id, navigate("/")))
	}
	s, rep := ts.runOnce(t, context.Background(), loaded, 2)
	defer s.Close()
	for _, sr := range rep.Scenarios {
		if sr.Status != StatusError || sr.Error == nil || sr.Error.Code != transport.CodeFixtureNotReady || !strings.Contains(sr.Error.Message, "answered 200, expected 418") {
			t.Errorf("%s: %s %+v", sr.ID, sr.Status, sr.Error)
		}
		if sr.Operations[0].Status != StatusSkipped {
			t.Errorf("%s: the operation ran", sr.ID)
		}
		if len(sr.Diagnostics) != 1 {
			t.Errorf("%s: diagnostics %+v", sr.ID, sr.Diagnostics)
			continue
		}
		if log := readArtifact(t, s.stores.stores[sr.ID], sr.Diagnostics[0]); !strings.Contains(log, "shared test server on "+ts.addr) {
			t.Errorf("%s: log %q", sr.ID, log)
		}
	}
}

// TestSharedServerDiedMidRun: once the shared server died, every later scenario errors at
// once with fixture_not_ready naming it, and it is not started again.
func TestSharedServerDiedMidRun(t *testing.T) {
	ts, dir := newTestServer(t), t.TempDir()
	loaded := []*Loaded{
		ts.scenario(t, dir, "kills", navigate("/die")),
		ts.scenario(t, dir, "after-1", navigate("/")),
		ts.scenario(t, dir, "after-2", navigate("/")),
	}
	s, rep := ts.runOnce(t, context.Background(), loaded, 1)
	defer s.Close()
	for _, sr := range rep.Scenarios[1:] {
		if sr.Status != StatusError || sr.Error == nil || sr.Error.Code != transport.CodeFixtureNotReady ||
			!strings.Contains(sr.Error.Message, "shared fixture server "+ts.base+"/health") || !strings.Contains(sr.Error.Message, "exited during the run (exit code 3)") {
			t.Errorf("%s: %s %+v", sr.ID, sr.Status, sr.Error)
		}
	}
}

// TestSharedServerStoppedOnInterrupt: Ctrl-C (the run's context cancelled) while a scenario
// waits on the shared server ends the run with the server stopped and reaped.
func TestSharedServerStoppedOnInterrupt(t *testing.T) {
	ts, dir := newTestServer(t), t.TempDir()
	hold := []any{navigate("/hold"), navigate("/hold")}
	loaded := []*Loaded{ts.scenario(t, dir, "a", hold...), ts.scenario(t, dir, "b", hold...), ts.scenario(t, dir, "c", hold...)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		client := &http.Client{Timeout: time.Second}
		proctest.PollUntil(60*time.Second, func() bool {
			resp, err := client.Get(ts.base + "/holding")
			if err != nil {
				return false
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return string(b) != "0"
		})
		cancel()
	}()
	s, rep := ts.runOnce(t, ctx, loaded, 2)
	defer s.Close()
	if rep.Status != StatusInterrupted {
		t.Errorf("run %s", rep.Status)
	}
}

// TestServerPlan: files share a server only when command, args, resolved cwd, env as
// written, readiness (defaults filled in) and reuseExisting are all the same; an address
// named with two different servers makes all its scenarios take turns; a server only one
// file names is neither.
func TestServerPlan(t *testing.T) {
	dir := t.TempDir()
	file := func(id, addr string, edit func(start, server map[string]any)) *Loaded {
		start := map[string]any{"command": "srv", "args": []string{addr}, "env": map[string]any{"A": "1", "B": map[string]any{"env": "HOST_B"}}}
		server := map[string]any{"mode": "managed", "start": start, "readiness": map[string]any{"url": "http://" + addr + "/health"}}
		if edit != nil {
			edit(start, server)
		}
		l := load(t, map[string]any{"version": 1, "id": id, "fixture": map[string]any{"baseUrl": "http://" + addr, "server": server},
			"operations": []any{navigate("/")}})
		l.Dir = dir
		return l
	}
	same := []*Loaded{
		file("plain", "127.0.0.1:1", nil),
		file("explicit-defaults", "127.0.0.1:1", func(start, server map[string]any) {
			start["cwd"] = dir
			server["readiness"] = map[string]any{"url": "http://127.0.0.1:1/health", "expectedStatus": 200}
		}),
		file("cwd-dot", "127.0.0.1:1", func(start, _ map[string]any) { start["cwd"] = "." }),
	}
	if plan := scheduleServers(same, nil, nil).plan; len(plan.Shared) != 1 || plan.Shared[0].Scenarios != 3 || len(plan.Turns) != 0 {
		t.Errorf("the same server written three ways: %+v", plan)
	}
	for name, edit := range map[string]func(start, server map[string]any){
		"args": func(start, _ map[string]any) { start["args"] = []string{"127.0.0.1:1", "-v"} },
		"cwd":  func(start, _ map[string]any) { start["cwd"] = "sub" },
		"env value": func(start, _ map[string]any) {
			start["env"] = map[string]any{"A": "2", "B": map[string]any{"env": "HOST_B"}}
		},
		"env name": func(start, _ map[string]any) {
			start["env"] = map[string]any{"A": "1", "B": map[string]any{"env": "HOST_C"}}
		},
		"status": func(_, server map[string]any) {
			server["readiness"] = map[string]any{"url": "http://127.0.0.1:1/health", "expectedStatus": 204}
		},
		"reuse": func(_, server map[string]any) { server["reuseExisting"] = true },
	} {
		loaded := []*Loaded{file("a", "127.0.0.1:1", nil), file("b", "127.0.0.1:1", nil), file("other", "127.0.0.1:1", edit), file("alone", "127.0.0.1:2", nil)}
		plan := scheduleServers(loaded, nil, nil).plan
		if len(plan.Shared) != 0 || len(plan.Turns) != 1 || plan.Turns[0] != (AddressTurns{Address: "127.0.0.1:1", Scenarios: 3, Servers: 2}) {
			t.Errorf("another %s: %+v", name, plan)
		}
	}
}

// TestSharedServerStartCutShortIsStopped: a start cut short by the starting scenario's own
// budget is not the server's fault: what was started is stopped (and that scenario's events
// say so), and the next user starts it afresh instead of inheriting a failure.
func TestSharedServerStartCutShortIsStopped(t *testing.T) {
	ts, dir := newTestServer(t), t.TempDir()
	ts.readiness = map[string]any{"url": ts.base + "/health", "expectedStatus": 418, "timeoutMs": 3000}
	short := ts.scenario(t, dir, "short", navigate("/"))
	short.Budgets = &Budgets{TimeoutMs: 1000}
	loaded := []*Loaded{short, ts.scenario(t, dir, "next", navigate("/"))}
	s := suiteOf(t, loaded, 1, nil)
	defer s.Close()
	rep := s.Run(context.Background())
	ts.requireStopped(t)
	if n := len(ts.started(t)); n != 2 {
		t.Errorf("the server was started %d times, want twice (the cut-short start is not kept)", n)
	}
	if got := serverEvents(rep.Scenarios[0]); got != "start:ok ready:failed stop:ok" {
		t.Errorf("short: server events %q, want its start, failed readiness and its stop", got)
	}
	if sr := rep.Scenarios[1]; sr.Status != StatusError || sr.Error == nil || !strings.Contains(sr.Error.Message, "expected 418") {
		t.Errorf("next: %s %+v, want its own readiness failure", sr.Status, sr.Error)
	}
}
