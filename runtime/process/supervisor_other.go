//go:build !linux

package process

import (
	"errors"
	"fmt"
	"os"
	"runtime"
)

// Outside Linux there is no subreaper, no Pdeathsig and no /proc: Supervise falls back to
// direct starts at the first Start.
type supervisor struct{}

func startSupervisor(SupervisorOptions, []string) (*supervisor, error) {
	return nil, errors.New("the process supervisor needs Linux, not " + runtime.GOOS)
}

func (*supervisor) start(*Process, Spec, string, []string, *pipeSet) error { return errSupervisorLost }
func (*supervisor) isGone() bool                                           { return true }
func (*supervisor) tell(string, string)                                    {}
func (*supervisor) close()                                                 {}

// ServeSupervisor has nothing to serve outside Linux.
func ServeSupervisor(ServeOptions) int {
	fmt.Fprintln(os.Stderr, "process supervisor: needs Linux")
	return 2
}
