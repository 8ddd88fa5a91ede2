//go:build linux

package process

import (
	"bytes"
	"os"
	"strconv"
	"testing"
	"time"
)

// A marked process caught in the middle of its exec is found. From the moment the kernel
// installs the new image (/proc/PID/exe and comm already name the new program, end_code is
// still 0) until its loader has laid out the environment, /proc/PID/environ reads empty;
// hasMarker took that for an environment without the marker (TestHasMarkerWholeEntries
// failed so in CI). An environment of 100k entries stretches that moment (the kernel walks
// every entry) so that about one start in ten is caught in it; before the fix every caught
// look missed the marker.
func TestHasMarkerDuringExec(t *testing.T) {
	t.Parallel()
	marker := newMarker()
	env := make([]string, 0, 100_001)
	for i := range 100_000 {
		env = append(env, "E"+strconv.Itoa(i)+"=")
	}
	env = append(env, marker)
	const starts = 100
	for range starts {
		p := start(t, Spec{Path: "/bin/sleep", Args: []string{"300"}, Env: env})
		if catchExecInProgress(t, p.Pid(), "sleep") {
			if !hasMarker(p.Pid(), marker) {
				t.Fatal("hasMarker = false for a marked process in the middle of its exec")
			}
			return
		}
		_ = p.Kill()
	}
	t.Fatalf("no exec caught in progress in %d starts: the test proves nothing", starts)
}

// catchExecInProgress watches pid until its exec into comm has finished, and reports whether
// it saw the exec in progress: comm already switched, end_code still 0.
func catchExecInProgress(t *testing.T, pid int, comm string) bool {
	t.Helper()
	want := []byte("(" + comm + ")")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		st, ok := parseProcStat(b)
		if err != nil || !ok {
			t.Fatalf("pid %d is gone before its exec finished", pid)
		}
		if bytes.Contains(b, want) {
			return st.endCode == 0
		}
	}
	t.Fatalf("pid %d never ran %s", pid, comm)
	return false
}
