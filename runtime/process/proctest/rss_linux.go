//go:build linux

package proctest

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// PeakRSS is process pid's peak resident size in bytes (VmHWM in /proc/PID/status). It fails
// t when the process or the line cannot be read: a bound checked against 0 proves nothing.
func PeakRSS(t testing.TB, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("pid %d: VmHWM %q", pid, v)
			}
			return kb << 10
		}
	}
	t.Fatalf("pid %d: no VmHWM in its status", pid)
	return 0
}
