package sessions

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// helperEnv switches the test binary into a helper process (see holdHost).
const helperEnv = "FASTBROWSER_SESSIONS_TEST_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		os.Exit(holdHost(dir))
	}
	syscall.Umask(0o022) // modes are checked under the common umask (one test sets a harsh one)
	os.Exit(m.Run())
}

// holdHost is the helper: it takes the host lock of the session directory dir, says
// "locked", and holds it until stdin closes or it is killed.
func holdHost(dir string) int {
	d := &Dir{ID: dir[strings.LastIndexByte(dir, '/')+1:], Path: dir}
	if _, err := d.LockHost(); err != nil {
		fmt.Println("ERR", err)
		return 2
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// hostProcess is a helper process holding d's host lock.
type hostProcess struct {
	cmd   *exec.Cmd
	stdin io.Closer
}

// startHost starts a helper holding d's host lock and returns once it holds it. The test's
// end kills and reaps it.
func startHost(t *testing.T, d *Dir) *hostProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+d.Path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &hostProcess{cmd: cmd, stdin: stdin}
	t.Cleanup(h.kill)
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	limit := budgets.WorkerReady().Ceiling // a child's start to its ready line
	select {
	case l := <-line:
		if l != "locked" {
			t.Fatalf("host helper said %q, want \"locked\"", l)
		}
	case <-time.After(limit):
		t.Fatalf("host helper did not take the lock within %s", limit)
	}
	return h
}

// kill SIGKILLs the helper and reaps it (the kernel has then released its lock).
func (h *hostProcess) kill() {
	if h.cmd.ProcessState != nil {
		return
	}
	_ = h.cmd.Process.Kill()
	_ = h.stdin.Close()
	_ = h.cmd.Wait()
}

// requireMode fails unless path's permission bits are want.
func requireMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != want {
		t.Errorf("%s: mode %#o, want %#o", path, fi.Mode().Perm(), want)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
