package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// interruptRun is the real binary running `run` on one scenario with a managed fixture
// server, a long operation and a cleanup hook, in an environment marked so that every
// process it starts can be found in /proc afterwards, whoever its parent is by then.
type interruptRun struct {
	cmd    *exec.Cmd
	out    string // --out
	dir    string // scenario directory (hook marker files)
	addr   string // the fixture server's address
	marker string // FASTBROWSER_INTERRUPT_TEST=<marker> in every descendant's environment
	stdout *proctest.SyncBuffer
	stderr *proctest.SyncBuffer
	exited chan struct{}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startInterruptRun starts `fastbrowser run` on a scenario whose operations navigate to the
// fixture's /slow page three times (9 s each, under the navigation budget) and whose cleanup
// hook is cleanup (argv).
func startInterruptRun(t *testing.T, cleanup []string) *interruptRun {
	t.Helper()
	return startInterruptRunWith(t, nil, cleanup)
}

// startInterruptRunWith is startInterruptRun with the managed server started by
// server(bin, addr, dir) (argv) instead of `fastbrowser fixture serve` directly.
func startInterruptRunWith(t *testing.T, server func(bin, addr, dir string) []string, cleanup []string) *interruptRun {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	r := &interruptRun{dir: t.TempDir(), addr: freeAddr(t), stdout: &proctest.SyncBuffer{}, stderr: &proctest.SyncBuffer{}, exited: make(chan struct{})}
	r.out = filepath.Join(r.dir, "results")
	r.marker = fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	base := "http://" + r.addr
	cleanupJSON, _ := json.Marshal(map[string]any{"command": cleanup[0], "args": cleanup[1:], "cwd": r.dir})
	start := []string{bin, "fixture", "serve", "--addr", r.addr}
	if server != nil {
		start = server(bin, r.addr, r.dir)
	}
	startJSON, _ := json.Marshal(map[string]any{"command": start[0], "args": start[1:]})
	slow := `{"op": "navigate", "request": {"url": "/slow?ms=9000"}}`
	scenarios := filepath.Join(r.dir, "scenarios")
	if err := os.Mkdir(scenarios, 0o755); err != nil {
		t.Fatal(err)
	}
	writeScenario(t, scenarios, "a.json", fmt.Sprintf(`{
  "version": 1, "id": "long-running",
  "fixture": {"baseUrl": %q, "server": {"mode": "managed",
    "start": %s,
    "readiness": {"url": %q}}},
  "hooks": {"cleanup": %s},
  "operations": [%s, %s, %s]
}`, base, startJSON, base+"/health", cleanupJSON, slow, slow, slow))
	r.cmd = exec.Command(bin, "run", "--out", r.out, scenarios)
	// TMPDIR is the test process's private one (runtimetest.Isolate): Chromium's profile
	// goes there, where runtimetest's snapshots look.
	r.cmd.Env = append(os.Environ(), "FASTBROWSER_INTERRUPT_TEST="+r.marker)
	r.cmd.Stdout, r.cmd.Stderr = r.stdout, r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		// Whatever failed, nothing of this run outlives the test.
		_ = r.cmd.Process.Kill()
		for _, pid := range r.procs() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		proctest.ReapAdoptedOrphans()
	})
	return r
}

// procs lists the live processes carrying this run's marker: the run itself, Chromium and
// its helpers, workers, the fixture server and hooks, orphaned or not.
func (r *interruptRun) procs() []int {
	want := []byte("FASTBROWSER_INTERRUPT_TEST=" + r.marker + "\x00")
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		if st, ok := proctest.ReadStat(pid); ok && st.Live() {
			pids = append(pids, pid)
		}
	}
	return pids
}

func (r *interruptRun) describe(pids []int) string {
	var s []string
	for _, pid := range pids {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		s = append(s, fmt.Sprintf("%d: %.150s", pid, cmd))
	}
	return strings.Join(s, "\n  ")
}

// waitMidway waits until the browser's first /slow navigation has reached the managed
// fixture server: the run is then in the middle of its first scenario's operations.
func (r *interruptRun) waitMidway(t *testing.T) {
	t.Helper()
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-r.exited:
			t.Fatalf("the run exited (%s) before it was interrupted\nstdout:\n%s\nstderr:\n%s", r.cmd.ProcessState, r.stdout, r.stderr)
		default:
		}
		if resp, err := client.Get("http://" + r.addr + "/counter"); err == nil {
			var c struct{ Hits int }
			_ = json.NewDecoder(resp.Body).Decode(&c)
			resp.Body.Close()
			if c.Hits > 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never navigated to the fixture\nstderr:\n%s", r.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// requireMarkedWhileRunning proves the /proc scan sees the run's processes at all: the run,
// its fixture server, its worker and Chromium all carry the marker while it runs.
func (r *interruptRun) requireMarkedWhileRunning(t *testing.T) {
	t.Helper()
	marked := map[int]bool{}
	for _, pid := range r.procs() {
		marked[pid] = true
	}
	want := map[string][]int{"run": {r.cmd.Process.Pid}}
	for pid := range proctest.Cmdlines("fixture serve --addr " + r.addr) {
		want["fixture server"] = append(want["fixture server"], pid)
	}
	for pid, cmd := range proctest.Cmdlines(" worker ") {
		if strings.Contains(cmd, "fastbrowser") {
			want["worker"] = append(want["worker"], pid)
		}
	}
	for pid := range proctest.Cmdlines("fastbrowser-profile-") {
		want["chromium"] = append(want["chromium"], pid)
	}
	for what, pids := range want {
		found := false
		for _, pid := range pids {
			found = found || marked[pid]
		}
		if !found {
			t.Fatalf("no %s process carries the run's marker (candidates %v, marked %v)", what, pids, r.describe(r.procs()))
		}
	}
}

func (r *interruptRun) interrupt(t *testing.T) {
	t.Helper()
	if err := r.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
}

// interruptTwice sends the first Ctrl-C, waits until the run is stopping (its cleanup hook,
// which must touch cleanup-started, has begun and the notice is on stderr) so the two
// signals are never merged into one pending SIGINT, sends the second and requires the exit
// code 130 within 10 s: at once, where an orderly stop would wait out the hook.
func (r *interruptRun) interruptTwice(t *testing.T) {
	t.Helper()
	r.interrupt(t)
	if !proctest.PollUntil(30*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(r.dir, "cleanup-started"))
		return err == nil
	}) {
		t.Fatalf("the cleanup hook never started after the first interrupt\nstderr:\n%s", r.stderr)
	}
	// The notice was written before the hook started, but reaches r.stderr through a copying
	// goroutine: wait for it.
	if !proctest.PollUntil(10*time.Second, func() bool { return strings.Contains(r.stderr.String(), "interrupt again to exit now") }) {
		t.Fatalf("no notice of the first interrupt on stderr:\n%s", r.stderr)
	}
	r.interrupt(t)
	if code := r.waitExit(t, 10*time.Second); code != exitInterrupted {
		t.Fatalf("exit code %d, want %d\nstderr:\n%s", code, exitInterrupted, r.stderr)
	}
}

// waitExit waits at most limit for the run to exit and returns its exit code.
func (r *interruptRun) waitExit(t *testing.T, limit time.Duration) int {
	t.Helper()
	select {
	case <-r.exited:
		return r.cmd.ProcessState.ExitCode()
	case <-time.After(limit):
		t.Fatalf("the run did not exit within %s of the interrupt\nstderr:\n%s", limit, r.stderr)
		return 0
	}
}

// requireNoOrphans waits a bounded moment for every process of the run to be gone.
func (r *interruptRun) requireNoOrphans(t *testing.T, limit time.Duration) {
	t.Helper()
	var left []int
	if !proctest.PollUntil(limit, func() bool { left = r.procs(); return len(left) == 0 }) {
		t.Fatalf("processes of the interrupted run still live %s after it exited:\n  %s", limit, r.describe(left))
	}
	if procs := proctest.Cmdlines("fixture serve --addr " + r.addr); len(procs) != 0 {
		t.Fatalf("fixture server still running: %v", procs)
	}
}

// TestInterruptStopsEverything is acceptance B4: one Ctrl-C in the middle of a run stops
// it in order: the running scenario is reported interrupted, its cleanup hook still runs
// and its server is stopped, report.json is written, the exit code is 130, and no Chromium,
// worker, fixture server or profile directory of the run is left.
func TestInterruptStopsEverything(t *testing.T) {
	before := runtimetest.Take()
	r := startInterruptRun(t, []string{"/bin/sh", "-c", "touch cleanup-ran"})
	r.waitMidway(t)
	r.requireMarkedWhileRunning(t)
	r.interrupt(t)
	if code := r.waitExit(t, 60*time.Second); code != exitInterrupted {
		t.Fatalf("exit code %d, want %d\nstderr:\n%s", code, exitInterrupted, r.stderr)
	}
	rep := readReport(t, filepath.Join(r.out, "report.json"))
	if rep.Status != "interrupted" || len(rep.Scenarios) != 1 {
		t.Fatalf("report status %s with %d scenarios, want interrupted with 1", rep.Status, len(rep.Scenarios))
	}
	sr := rep.Scenarios[0]
	if sr.Status != "interrupted" || sr.Operations[0].Status == "passed" || sr.Operations[2].Status != "skipped" {
		t.Fatalf("scenario %s: %+v", sr.Status, sr.Operations)
	}
	var events []string
	for _, e := range sr.Events {
		events = append(events, e.Kind+"."+e.Name+":"+e.Status)
	}
	if got, want := strings.Join(events, " "), "server.start:ok server.ready:ok runtime.open:ok runtime.close:ok hook.cleanup:ok server.stop:ok"; got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "cleanup-ran")); err != nil {
		t.Fatalf("the cleanup hook did not run after the interrupt: %v", err)
	}
	r.requireNoOrphans(t, 5*time.Second)
	// No Chromium, worker or fixture process and no profile directory appeared for good.
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Fatal(err)
	}
}

// TestInterruptTwiceExitsAtOnce is acceptance B4's second half: a second Ctrl-C while the
// run is stopping (here: during a 30 s cleanup hook) exits at once with 130, and every
// process of the run (Chromium, the fixture server, the hook) still dies, by Pdeathsig.
func TestInterruptTwiceExitsAtOnce(t *testing.T) {
	// The hook execs sleep, so the sleep is the run's own child (Pdeathsig reaches children,
	// not grandchildren).
	profilesBefore := profileDirs()
	r := startInterruptRun(t, []string{"/bin/sh", "-c", "touch cleanup-started; exec /bin/sleep 30"})
	r.waitMidway(t)
	r.requireMarkedWhileRunning(t)
	r.interruptTwice(t)
	// Pdeathsig and the group kills end the rest asynchronously: room for a loaded machine,
	// well before the hook's 30 s sleep would end by itself.
	r.requireNoOrphans(t, 10*time.Second)
	// No orderly stop ran, but the abrupt exit still removed the browser's profile.
	for p := range profileDirs() {
		if !profilesBefore[p] {
			_ = os.RemoveAll(p)
			t.Errorf("profile left after the second interrupt: %s", p)
		}
	}
}

// profileDirs lists the Chromium profile directories in this test process's TMPDIR.
func profileDirs() map[string]bool {
	m, _ := filepath.Glob(filepath.Join(os.TempDir(), "fastbrowser-profile-*"))
	out := map[string]bool{}
	for _, p := range m {
		out[p] = true
	}
	return out
}

// TestInterruptTwiceEndsServerDaemons: the second Ctrl-C's abrupt exit (process.KillAll)
// also ends what the managed server left outside its process group and session: a
// `setsid sleep &` and a double-forked daemon. Neither is our child nor in a group we kill,
// and Pdeathsig does not reach them; only the server's environment token finds them.
func TestInterruptTwiceEndsServerDaemons(t *testing.T) {
	server := func(bin, addr, dir string) []string {
		return []string{"/bin/sh", "-c", proctest.LeaveDaemons(dir, "server") + fmt.Sprintf("exec %s fixture serve --addr %s", bin, addr)}
	}
	r := startInterruptRunWith(t, server, []string{"/bin/sh", "-c", "touch cleanup-started; exec /bin/sleep 30"})
	r.waitMidway(t)
	daemons := proctest.DaemonPids(t, r.dir, "server")
	for _, pid := range daemons {
		if !proctest.Alive(pid) {
			t.Fatalf("the server's daemon %d is not running", pid)
		}
		for server := range proctest.Cmdlines("fixture serve --addr " + r.addr) {
			if st, _ := proctest.ReadStat(pid); st.Pgid == server {
				t.Fatalf("pid %d did not leave the server's group", pid)
			}
		}
	}
	r.interruptTwice(t)
	// KillAll signalled them before the run exited; dying is asynchronous.
	if !proctest.PollUntil(5*time.Second, func() bool {
		proctest.ReapAdoptedOrphans(daemons...)
		return !proctest.Alive(daemons[0]) && !proctest.Alive(daemons[1])
	}) {
		t.Fatalf("the server's daemons %v outlived the second interrupt", daemons)
	}
	r.requireNoOrphans(t, 10*time.Second)
}
