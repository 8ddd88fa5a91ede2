//go:build linux

package process

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// testSupervisor starts a supervisor (this test binary, re-executed) for one test; the test
// hands it children with startSupervised, so tests using it can run in parallel with tests
// that start children directly.
func testSupervisor(t *testing.T) *supervisor {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s, err := startSupervisor(SupervisorOptions{Path: exe}, nil)
	if err != nil {
		t.Fatal(err)
	}
	track(s.pid)
	t.Cleanup(s.close)
	return s
}

// startSupervised starts spec through s, tracks the child and its group like start, and
// checks that s forked it.
func startSupervised(t *testing.T, s *supervisor, spec Spec) *Process {
	t.Helper()
	p, err := startOn(spec, func() *supervisor { return s })
	if err != nil {
		t.Fatalf("Start(%s) through the supervisor: %v", spec.Path, err)
	}
	track(p.Pid())
	trackGroup(p.Pid())
	t.Cleanup(func() { _ = p.Kill() })
	if st, ok := proctest.ReadStat(p.Pid()); ok && st.PPid != s.pid {
		t.Fatalf("pid %d has parent %d, not the supervisor %d", p.Pid(), st.PPid, s.pid)
	}
	return p
}

// serverTree is a managed server's shape that nothing but a subreaper can end in full: a
// grandchild in its group, whose own child (the great-grandchild) called setsid, all
// long-lived. Each writes its pid to a file in dir (readTree reads them).
func serverTree(dir string) string {
	return `/bin/sh -c '/usr/bin/setsid /bin/sleep 300 & echo $! > ` + dir + `/greatgrandchild; exec /bin/sleep 300' &
echo $! > ` + dir + `/grandchild
echo $$ > ` + dir + `/server
exec /bin/sleep 300`
}

// readTree waits (bounded) for serverTree's pid files in dir and returns the pids, server
// first, each tracked as the test's.
func readTree(t *testing.T, dir string) []int {
	t.Helper()
	var pids []int
	for _, name := range []string{"server", "grandchild", "greatgrandchild"} {
		var pid int
		proctest.PollUntil(10*time.Second, func() bool {
			b, err := os.ReadFile(filepath.Join(dir, name))
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			return err == nil && pid > 1 && proctest.Alive(pid)
		})
		if pid <= 1 {
			t.Fatalf("%s: no live pid written", name)
		}
		track(pid)
		pids = append(pids, pid)
	}
	return pids
}

// requireAllGone waits at most the stop grace, reaping what this test binary adopted, until
// none of pids is alive.
func requireAllGone(t *testing.T, what string, pids []int) {
	t.Helper()
	var left []int
	if !proctest.PollUntil(budgets.ProcessStopGrace().Default, func() bool {
		proctest.ReapAdoptedOrphans(pids...)
		left = left[:0]
		for _, pid := range pids {
			if proctest.Alive(pid) {
				left = append(left, pid)
			}
		}
		return len(left) == 0
	}) {
		t.Fatalf("%s: still alive after %s: %v", what, budgets.ProcessStopGrace().Default, left)
	}
}

func TestSupervisedExitStatus(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	for _, c := range []struct {
		script string
		code   int
	}{{"exit 0", 0}, {"exit 7", 7}} {
		p := startSupervised(t, s, sh(c.script))
		waitDone(t, p, 5*time.Second)
		if p.ExitCode() != c.code || p.Signal() != "" {
			t.Errorf("%q: ExitCode()=%d Signal()=%q, want %d and none", c.script, p.ExitCode(), p.Signal(), c.code)
		}
	}
	p := startSupervised(t, s, Spec{Path: "/bin/sleep", Args: []string{"1000"}})
	if p.ExitCode() != -1 || p.Signal() != "" {
		t.Errorf("before reap: ExitCode()=%d Signal()=%q, want -1 and empty", p.ExitCode(), p.Signal())
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	if p.Signal() != "terminated" || p.ExitCode() != -1 {
		t.Errorf("after Stop: ExitCode()=%d Signal()=%q, want -1 and terminated", p.ExitCode(), p.Signal())
	}
	p = startSupervised(t, s, sh(ignoreTerm))
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	if p.Signal() != "killed" {
		t.Errorf("after Kill: Signal()=%q, want killed", p.Signal())
	}
}

// Stop ends the whole group of a supervised child (the signals go from here, straight to
// the group), and the leftovers of a TrackTree child outside it.
func TestSupervisedStopEndsGroupAndTree(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	spec := sh(ignoreTerm)
	spec.Stdout = true
	p := startSupervised(t, s, spec)
	grandchild := readPid(t, p.Stdout)
	if err := p.Stop(300 * time.Millisecond); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if p.Signal() != "killed" {
		t.Errorf("Signal() = %q, want killed", p.Signal())
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
	if proctest.Alive(grandchild) {
		t.Errorf("grandchild %d still alive", grandchild)
	}

	dir := t.TempDir()
	p = startSupervised(t, s, Spec{Path: "/bin/sh", Args: []string{"-c", proctest.LeaveDaemons(dir, "t") + "exec /bin/sleep 300"}, TrackTree: true})
	daemons := proctest.DaemonPids(t, dir, "t")
	for _, pid := range daemons {
		track(pid)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	requireAllGone(t, "what left the group", daemons)
}

// The pipes and descriptors a child is given reach it through the supervisor: stdin and
// stdout as pipes, drained stderr in Capture (Drained says when it is all there), and
// ExtraFiles on fd 3.
func TestSupervisedPipesAndFiles(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	p := startSupervised(t, s, Spec{Path: "/bin/cat", Stdin: true, Stdout: true})
	if _, err := io.WriteString(p.Stdin, "hello\n"); err != nil {
		t.Fatal(err)
	}
	if got := readLine(t, p.Stdout, 5*time.Second); got != "hello" {
		t.Errorf("echo = %q", got)
	}
	_ = p.Stdin.Close()
	waitDone(t, p, 5*time.Second)
	if p.ExitCode() != 0 {
		t.Errorf("cat: ExitCode() = %d", p.ExitCode())
	}

	capt := NewCapture(1<<10, 0)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p = startSupervised(t, s, Spec{Path: "/bin/sh", Args: []string{"-c", "echo on-stderr >&2; echo on-fd3 >&3"}, Capture: capt, ExtraFiles: []*os.File{w}})
	_ = w.Close()
	if got := readLine(t, r, 5*time.Second); got != "on-fd3" {
		t.Errorf("fd 3 read %q", got)
	}
	waitDone(t, p, 5*time.Second)
	select {
	case <-p.Drained():
	case <-time.After(5 * time.Second):
		t.Fatal("not drained 5 s after the reap")
	}
	if head, _, _ := capt.Snapshot(); string(head) != "on-stderr\n" {
		t.Errorf("captured %q", head)
	}
}

// Environment and directory are the child's as asked; its environment also names the
// supervisor.
func TestSupervisedEnvAndDir(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	dir := t.TempDir()
	p := startSupervised(t, s, Spec{Path: "/bin/sh", Args: []string{"-c", `echo "$FB_X|$HOME|$(pwd -P)|$` + identityVar + `"`},
		Dir: dir, Env: []string{"FB_X=42"}, Stdout: true})
	st, _ := readProcStat(s.pid)
	real, _ := filepath.EvalSymlinks(dir)
	want := "42||" + real + "|" + identity{s.pid, st.startTime}.String()
	if got := readLine(t, p.Stdout, 5*time.Second); got != want {
		t.Errorf("child saw %q, want %q", got, want)
	}
	waitDone(t, p, 5*time.Second)
}

// A start the supervisor cannot make fails as a direct one does: the same error.
func TestSupervisedStartErrors(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	for _, c := range []struct {
		path string
		want error
	}{{"/nonexistent/fastbrowser-no-such-binary", fs.ErrNotExist}, {"/tmp", fs.ErrPermission}} {
		p, err := startOn(Spec{Path: c.path}, func() *supervisor { return s })
		if err == nil {
			track(p.Pid())
			_ = p.Kill()
			t.Errorf("Start(%q) succeeded, want an error", c.path)
			continue
		}
		_, direct := Start(Spec{Path: c.path})
		if !errors.Is(err, c.want) || direct == nil || err.Error() != direct.Error() {
			t.Errorf("Start(%q): %v; started directly: %v", c.path, err, direct)
		}
	}
}

// Closing the supervisor (the orderly end) ends every process it started, whole trees
// included, and removes what was registered for removal.
func TestSupervisorCloseEndsEverything(t *testing.T) {
	t.Parallel()
	s := testSupervisor(t)
	dir, profile := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(profile, "f"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.tell(msgRemove, profile)
	p := startSupervised(t, s, sh(serverTree(dir)))
	tree := readTree(t, dir)
	s.close()
	waitDone(t, p, 5*time.Second)
	if p.Signal() != "killed" {
		t.Errorf("child: Signal() = %q, want killed", p.Signal())
	}
	requireAllGone(t, "the tree", tree)
	if _, err := os.Stat(profile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("registered directory still there: %v", err)
	}
}

// A SIGKILLed parent takes everything it started through its supervisor with it: the
// supervisor sees it die, kills the tree (a setsid great-grandchild included) and removes
// the registered directory.
func TestSupervisorEndsTreeOfKilledParent(t *testing.T) {
	t.Parallel()
	parent, sup, tree, dir := startSupervisedParent(t)
	if err := syscall.Kill(parent.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	requireAllGone(t, "the killed parent's tree and supervisor", append(tree, sup))
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("registered directory still there: %v", err)
	}
}

// startSupervisedParent starts the supervised-parent helper and returns it, its
// supervisor's pid, the tree it started and the directory it registered.
func startSupervisedParent(t *testing.T) (parent *Process, sup int, tree []int, dir string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "registered")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	parent = start(t, Spec{Path: exe, Args: []string{"-test.run=^$"}, Stdout: true,
		Env: append(os.Environ(), helperEnv+"=supervised-parent", helperDirEnv+"="+dir)})
	r := bufio.NewReader(parent.Stdout)
	sup = readPid(t, r)
	child := readPid(t, r)
	tree = readTree(t, dir)
	if tree[0] != child {
		t.Fatalf("the tree's server is %d, the child %d", tree[0], child)
	}
	if st, _ := proctest.ReadStat(child); st.PPid != sup {
		t.Fatalf("the child's parent is %d, not the supervisor %d", st.PPid, sup)
	}
	return parent, sup, tree, dir
}

// A parent and its supervisor killed together (a host crash) leave the tree's grandchildren
// running, adopted elsewhere; the next supervisor to start kills them (they name a
// supervisor that is gone), and spares what a live supervisor started. Not parallel: any
// supervisor another test starts meanwhile would sweep them first.
func TestNextSupervisorSweepsWhatADeadOneLeft(t *testing.T) {
	live := testSupervisor(t)
	spared := startSupervised(t, live, Spec{Path: "/bin/sleep", Args: []string{"300"}})

	parent, sup, tree, _ := startSupervisedParent(t)
	// Stopped, neither can act on the other's death before both are dead.
	for _, pid := range []int{sup, parent.Pid()} {
		if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
	}
	for _, pid := range []int{sup, parent.Pid()} {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	waitDone(t, parent, 5*time.Second)
	requireAllGone(t, "the supervisor", []int{sup})
	survivors := tree[1:] // the server died by Pdeathsig; its grandchild and setsid child did not
	for _, pid := range survivors {
		if !proctest.Alive(pid) {
			t.Fatalf("pid %d died with the supervisor; the test proves nothing", pid)
		}
	}
	testSupervisor(t)
	requireAllGone(t, "what the dead supervisor left", survivors)
	if spared.Exited() {
		t.Errorf("the sweep killed a live supervisor's child: %s", spared.Signal())
	}
}

// Supervise routes Start through a supervisor started on demand, Start falls back to
// direct starts when it cannot be started, and stop returns Start to direct starts. Not
// parallel: it sets the package's switch, which every Start reads.
func TestSuperviseRoutesStart(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stop := Supervise(SupervisorOptions{Path: exe})
	p := start(t, Spec{Path: "/bin/sleep", Args: []string{"300"}})
	sv.Lock()
	sup := sv.cur
	sv.Unlock()
	if sup == nil {
		t.Fatal("no supervisor after a supervised Start")
	}
	track(sup.pid)
	if st, _ := proctest.ReadStat(p.Pid()); st.PPid != sup.pid {
		t.Errorf("the child's parent is %d, not the supervisor %d", st.PPid, sup.pid)
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatal(err)
	}
	stop()
	if !awaitClosed(sup.exited, 5*time.Second) {
		t.Error("the supervisor outlived stop")
	}
	p = start(t, Spec{Path: "/bin/sleep", Args: []string{"300"}})
	if st, _ := proctest.ReadStat(p.Pid()); st.PPid != os.Getpid() {
		t.Errorf("after stop: the child's parent is %d, not this process", st.PPid)
	}
	_ = p.Kill()

	var notes []error
	stop = Supervise(SupervisorOptions{Path: "/nonexistent/fastbrowser", OnFallback: func(err error) { notes = append(notes, err) }})
	defer stop()
	for range 2 {
		p = start(t, sh("exit 3"))
		waitDone(t, p, 5*time.Second)
		if p.ExitCode() != 3 {
			t.Errorf("direct start after the fallback: ExitCode() = %d", p.ExitCode())
		}
	}
	if len(notes) != 1 {
		t.Errorf("OnFallback called %d times, want once: %v", len(notes), notes)
	}
}

func TestStatusOf(t *testing.T) {
	for _, c := range []struct {
		ws     syscall.WaitStatus
		code   int
		signal string
	}{{0, 0, ""}, {7 << 8, 7, ""}, {syscall.WaitStatus(syscall.SIGKILL), -1, "killed"}, {syscall.WaitStatus(syscall.SIGTERM), -1, "terminated"}} {
		if got := statusOf(c.ws); got.code != c.code || got.signal != c.signal {
			t.Errorf("statusOf(%#x) = %+v, want %d %q", uint32(c.ws), got, c.code, c.signal)
		}
	}
}

// A control message crosses the socket whole: a body over many packets (an environment of
// 200 KiB) and its descriptors, which arrive working.
func TestControlMessageCarriesBodyAndFiles(t *testing.T) {
	t.Parallel()
	ours, theirs, err := controlPair()
	if err != nil {
		t.Fatal(err)
	}
	defer ours.close()
	peer, err := newControlConn(theirs)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	env := []string{"BIG=" + strings.Repeat("x", 200<<10), "LAST=1"}
	sent := &wireMsg{Kind: msgSpawn, ID: 9, Path: "/bin/true", Args: []string{"true"}, Env: env, Stdin: true}
	errc := make(chan error, 1)
	go func() { errc <- ours.send(sent, []*os.File{r, w, w}) }()
	got, files, err := peer.receive()
	if err != nil {
		t.Fatal(err)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	defer closeFiles(files...)
	if got.Kind != sent.Kind || got.ID != 9 || len(got.Env) != 2 || got.Env[0] != env[0] || got.Env[1] != "LAST=1" || !got.Stdin {
		t.Fatalf("received %s %d with %d env entries", got.Kind, got.ID, len(got.Env))
	}
	if len(files) != 3 {
		t.Fatalf("received %d descriptors, want 3", len(files))
	}
	if _, err := files[1].WriteString("through\n"); err != nil {
		t.Fatal(err)
	}
	if line := readLine(t, r, 5*time.Second); line != "through" {
		t.Errorf("the passed write end wrote %q", line)
	}
	_ = peer.close()
	if _, _, err := ours.receive(); !errors.Is(err, io.EOF) {
		t.Errorf("after the peer closed: %v, want EOF", err)
	}
}

// Prestart brings the supervisor up before any Start asks for it. Not parallel: it sets the
// package's switch.
func TestSupervisePrestart(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stop := Supervise(SupervisorOptions{Path: exe, Prestart: true})
	defer stop()
	var sup *supervisor
	if !proctest.PollUntil(budgets.SupervisorAnswer, func() bool {
		sv.Lock()
		sup = sv.cur
		sv.Unlock()
		return sup != nil
	}) {
		t.Fatal("no supervisor came up before the first Start")
	}
	track(sup.pid)
	stop()
	if !awaitClosed(sup.exited, 5*time.Second) {
		t.Error("the supervisor outlived stop")
	}
}
