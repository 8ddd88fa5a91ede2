//go:build linux

package process

import (
	"fmt"
	"os"
	"time"
)

// helperLife bounds a helper's own life in case the test that drives it is gone.
const helperLife = time.Minute

// helperDirEnv names the directory a supervised-parent helper registers for removal and
// where its tree writes its pids.
const helperDirEnv = "FASTBROWSER_PROCESS_TEST_DIR"

// runHelper is the test binary acting as a parent process:
//   - pdeathsig-parent starts a long sleep through Start, prints its pid, and waits to be
//     killed;
//   - supervised-parent supervises (this binary as its supervisor), registers
//     $FASTBROWSER_PROCESS_TEST_DIR for removal, starts serverTree there, prints the
//     supervisor's and the child's pids, and waits to be killed.
func runHelper(role string) int {
	var spec Spec
	switch role {
	case "pdeathsig-parent":
		spec = Spec{Path: "/bin/sleep", Args: []string{"1000"}}
	case "supervised-parent":
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer Supervise(SupervisorOptions{Path: exe, OnFallback: func(err error) { fmt.Fprintln(os.Stderr, err) }})()
		dir := os.Getenv(helperDirEnv)
		RemoveOnAbruptEnd(dir)
		spec = Spec{Path: "/bin/sh", Args: []string{"-c", serverTree(dir)}, TrackTree: true}
	default:
		fmt.Fprintln(os.Stderr, "unknown helper role", role)
		return 2
	}
	p, err := Start(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if role == "supervised-parent" {
		sv.Lock()
		cur := sv.cur
		sv.Unlock()
		if cur == nil {
			fmt.Fprintln(os.Stderr, "started without a supervisor")
			_ = p.Kill()
			return 1
		}
		fmt.Println(cur.pid)
	}
	fmt.Println(p.Pid())
	select {
	case <-p.Done():
		return 1
	case <-time.After(helperLife):
		_ = p.Kill()
		return 1
	}
}
