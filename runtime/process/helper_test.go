//go:build linux

package process

import (
	"fmt"
	"os"
	"time"
)

// helperLife bounds a helper's own life in case the test that drives it is gone.
const helperLife = time.Minute

// runHelper is the test binary acting as a parent process for the Pdeathsig test: it starts
// a long sleep through Start, prints its pid, and waits to be killed.
func runHelper(role string) int {
	if role != "pdeathsig-parent" {
		fmt.Fprintln(os.Stderr, "unknown helper role", role)
		return 2
	}
	p, err := Start(Spec{Path: "/bin/sleep", Args: []string{"1000"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
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
