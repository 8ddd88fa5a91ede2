// Command fastbrowser is the CLI: it wires flags, exit codes and output format to the
// runtime, worker, scenario and fixture packages, and holds no logic of its own. `run` and
// `replay` hand their scenarios to a scenario.Suite (scheduling, the run's browser, the
// per-scenario stores) and print and write the report it returns.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process"
)

func main() {
	if process.IsSupervisorInvocation(os.Args) {
		os.Exit(serveSupervisor())
	}
	st := osState()
	stopSupervisor := superviseChildren(st, os.Args)
	ctx, stop := interruptContext(st)
	code := run(ctx, st, os.Args)
	stop()
	stopSupervisor() // after run: everything it started has been stopped in order
	os.Exit(code)
}

// interruptContext cancels ctx on the first SIGINT/SIGTERM, so everything started is
// stopped in order; a second signal exits at once (children still die by Pdeathsig).
func interruptContext(st *state) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case s := <-sig:
			// SIGTERM is how a runner stops a managed `fixture serve`: its log should say
			// that, not that someone pressed Ctrl-C.
			if s == syscall.SIGTERM {
				fmt.Fprintln(st.stderr, "fastbrowser: terminated (SIGTERM); stopping")
			} else {
				fmt.Fprintln(st.stderr, "fastbrowser: interrupted; stopping (interrupt again to exit now)")
			}
			cancel()
		case <-ctx.Done():
			return
		}
		<-sig
		// Pdeathsig takes our direct children down with us; KillAll also takes their
		// groups (a server under `sh -c`, a hook's background job) so nothing keeps a port.
		process.KillAll()
		chromium.RemoveProfilesAfterKill()
		os.Exit(exitInterrupted)
	}()
	return ctx, func() { signal.Stop(sig); cancel() }
}
