//go:build linux

package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// LeaveDaemons is shell that leaves two processes outside its process group and session,
// each writing its pid to a file in dir named after prefix: a `setsid sleep &`, and a daemon
// that double-forked (fork, setsid, fork; the middle shell exits at once). DaemonPids reads
// them back.
func LeaveDaemons(dir, prefix string) string {
	p := filepath.Join(dir, prefix)
	return fmt.Sprintf(`/usr/bin/setsid /bin/sleep 300 & echo $! > %[1]s-setsid
/usr/bin/setsid /bin/sh -c '/bin/sleep 300 & echo $! > %[1]s-daemon'
`, p)
}

// DaemonPids reads the pids LeaveDaemons wrote for prefix, waiting (bounded) for the files.
func DaemonPids(t testing.TB, dir, prefix string) []int {
	t.Helper()
	var pids []int
	for _, kind := range []string{"setsid", "daemon"} {
		f := filepath.Join(dir, prefix+"-"+kind)
		var pid int
		PollUntil(10*time.Second, func() bool {
			data, err := os.ReadFile(f)
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
			return err == nil && pid > 1
		})
		if pid <= 1 {
			t.Fatalf("%s: no pid written", f)
		}
		pids = append(pids, pid)
	}
	return pids
}
