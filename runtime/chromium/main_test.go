//go:build linux

package chromium

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// tmpDir is this test binary's private TMPDIR: every profile the tests make lands there, so
// the leak check below sees only ours even while other test binaries run Chromium.
var tmpDir string

// Fake browsers, written before any test starts a process: writing an executable while
// another goroutine forks can make exec fail with ETXTBSY (golang/go #22315).
var (
	fakeNeverReady    string // prints noise, never the DevTools line, sleeps (with a grandchild)
	fakeExitsEarly    string // prints an error and exits 3
	fakeNotExecutable string // mode 0644
	fakeLoud          string // says stderrMarker on stderr, then execs the real Chromium (fds 3 and 4 kept)
)

// stderrMarker is what fakeLoud prints: Chromium itself prints nothing fixed on a pipe launch.
const stderrMarker = "fake-chromium: starting"

// fakeInfoArg makes a fake write "PID PROFILE" to a file, so a test can check a browser
// that never came up (and so was never returned) is gone and its profile removed.
const fakeInfoArg = "--fake-info-file="

const neverReadyScript = `#!/bin/sh
echo "/usr/bin/chromium: 9: [: unexpected operator" >&2
profile=
for a; do case "$a" in --user-data-dir=*) profile=${a#*=};; esac; done
for a; do case "$a" in ` + fakeInfoArg + `*) echo "$$ $profile" > "${a#*=}";; esac; done
/bin/sleep 1000 &
exec /bin/sleep 1000
`

func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	if err := proctest.BecomeSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "chromium tests: cannot become subreaper:", err)
		return 1
	}
	var err error
	if tmpDir, err = os.MkdirTemp("", "fastbrowser-chromium-test-*"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmpDir)
	os.Setenv("TMPDIR", tmpDir) // os.MkdirTemp("", …) in Launch now lands here
	if err := writeFakes(filepath.Join(tmpDir, "bin")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	code := m.Run()
	if leaks := waitForLeaks(); len(leaks) > 0 {
		fmt.Fprintln(os.Stderr, "chromium tests: left behind:")
		for _, l := range leaks {
			fmt.Fprintln(os.Stderr, "  ", l)
		}
		code = 1
	}
	return code
}

func writeFakes(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fakeNeverReady = filepath.Join(dir, "never-ready")
	fakeExitsEarly = filepath.Join(dir, "exits-early")
	fakeNotExecutable = filepath.Join(dir, "not-executable")
	fakeLoud = filepath.Join(dir, "loud")
	for path, script := range map[string]string{
		fakeLoud:          "#!/bin/sh\necho '" + stderrMarker + "' >&2\nexec " + DefaultExecutable + " \"$@\"\n",
		fakeNeverReady:    neverReadyScript,
		fakeExitsEarly:    "#!/bin/sh\necho 'secret stderr detail' >&2\nexit 3\n",
		fakeNotExecutable: "#!/bin/sh\nexit 0\n",
	} {
		mode := os.FileMode(0o755)
		if path == fakeNotExecutable {
			mode = 0o644
		}
		if err := os.WriteFile(path, []byte(script), mode); err != nil {
			return err
		}
	}
	return nil
}

// groups are the process groups of every browser (real or fake) the tests launched.
var groups struct {
	sync.Mutex
	m map[int]bool
}

func trackGroup(pgid int) {
	groups.Lock()
	defer groups.Unlock()
	if groups.m == nil {
		groups.m = map[int]bool{}
	}
	groups.m[pgid] = true
}

// waitForLeaks gives killed processes the stop grace to finish dying, then lists leftover
// profiles, processes running with one of our profiles, and live members of our groups.
// Whatever it finds it also kills and removes, so one failure does not poison the machine.
func waitForLeaks() []string {
	var leaks []string
	profileArg := "--user-data-dir=" + filepath.Join(tmpDir, "fastbrowser-profile-")
	proctest.PollUntil(budgets.ProcessStopGrace().Default, func() bool {
		proctest.ReapAdoptedOrphans()
		leaks = leaks[:0]
		dirs, _ := filepath.Glob(filepath.Join(tmpDir, profilePattern))
		for _, d := range dirs {
			leaks = append(leaks, "profile "+d)
		}
		for pid, cmd := range proctest.Cmdlines(profileArg) {
			leaks = append(leaks, fmt.Sprintf("process %d: %.150s", pid, cmd))
		}
		groups.Lock()
		for pgid := range groups.m {
			for _, pid := range proctest.LiveMembers(pgid) {
				leaks = append(leaks, fmt.Sprintf("process %d in group %d", pid, pgid))
			}
		}
		groups.Unlock()
		return len(leaks) == 0
	})
	if len(leaks) > 0 {
		groups.Lock()
		for pgid := range groups.m {
			if pgid > 1 {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
			}
		}
		groups.Unlock()
		for pid := range proctest.Cmdlines(profileArg) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return leaks
}
