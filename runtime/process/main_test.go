//go:build linux

package process

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// helperEnv switches the test binary into a helper role (see runHelper).
const helperEnv = "FASTBROWSER_PROCESS_TEST_HELPER"

func TestMain(m *testing.M) {
	if IsSupervisorInvocation(os.Args) {
		os.Exit(ServeSupervisor(ServeOptions{}))
	}
	if role := os.Getenv(helperEnv); role != "" {
		os.Exit(runHelper(role))
	}
	// Pin the main goroutine to the main thread so tests that end locked threads end real
	// ones: a locked main thread is parked by the runtime, never ended.
	runtime.LockOSThread()
	if err := proctest.BecomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "process tests: cannot become subreaper:", err)
		os.Exit(1)
	}
	code := m.Run()
	if leaks := waitForLeaks(); len(leaks) > 0 {
		fmt.Fprintf(os.Stderr, "process tests: processes started by the tests still run: %v\n", leaks)
		for _, pid := range leaks {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		code = 1
	}
	os.Exit(code)
}

// tracked remembers every process the tests started or learned of, with its start time so a
// reused pid is not mistaken for a leak.
var tracked struct {
	sync.Mutex
	procs  map[int]uint64 // pid -> start time
	groups map[int]bool
}

func track(pid int) {
	st, ok := proctest.ReadStat(pid)
	tracked.Lock()
	defer tracked.Unlock()
	if tracked.procs == nil {
		tracked.procs, tracked.groups = map[int]uint64{}, map[int]bool{}
	}
	if ok {
		tracked.procs[pid] = st.StartTime
	}
}

func trackGroup(pgid int) {
	tracked.Lock()
	defer tracked.Unlock()
	if tracked.groups == nil {
		tracked.procs, tracked.groups = map[int]uint64{}, map[int]bool{}
	}
	tracked.groups[pgid] = true
}

// waitForLeaks gives killed processes the stop grace to finish dying, then lists the
// tracked ones still alive.
func waitForLeaks() []int {
	var leaks []int
	proctest.PollUntil(budgets.ProcessStopGrace().Default, func() bool {
		proctest.ReapAdoptedOrphans()
		leaks = leaks[:0]
		tracked.Lock()
		defer tracked.Unlock()
		for pid, start := range tracked.procs {
			if st, ok := proctest.ReadStat(pid); ok && st.Live() && st.StartTime == start {
				leaks = append(leaks, pid)
			}
		}
		for pgid := range tracked.groups {
			leaks = append(leaks, proctest.LiveMembers(pgid)...)
		}
		return len(leaks) == 0
	})
	return leaks
}

// start starts spec, tracks the child and its group, and kills the group when the test ends.
func start(t *testing.T, spec Spec) *Process {
	t.Helper()
	p, err := Start(spec)
	if err != nil {
		t.Fatalf("Start(%s): %v", spec.Path, err)
	}
	track(p.Pid())
	trackGroup(p.Pid())
	t.Cleanup(func() { _ = p.Kill() })
	return p
}

func sh(script string) Spec {
	return Spec{Path: "/bin/sh", Args: []string{"-c", script}}
}

// readLine reads one line from r within limit.
func readLine(t *testing.T, r io.Reader, limit time.Duration) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		return strings.TrimSpace(line)
	case <-time.After(limit):
		t.Fatalf("no line within %s", limit)
		return ""
	}
}

// readPid reads a pid the child printed and tracks it as a process the test owns.
func readPid(t *testing.T, r io.Reader) int {
	t.Helper()
	line := readLine(t, r, 5*time.Second)
	pid, err := strconv.Atoi(line)
	if err != nil || pid <= 1 {
		t.Fatalf("child printed %q, want a pid", line)
	}
	track(pid)
	return pid
}

func waitDone(t *testing.T, p *Process, limit time.Duration) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(limit):
		t.Fatalf("pid %d not reaped within %s", p.Pid(), limit)
	}
}

// requireNotReaped fails t if any of pids has left /proc: killed or not, a process stays
// listed (a zombie) until its parent reaps it.
func requireNotReaped(t *testing.T, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if _, ok := proctest.ReadStat(pid); !ok {
			t.Errorf("pid %d was already reaped", pid)
		}
	}
}
