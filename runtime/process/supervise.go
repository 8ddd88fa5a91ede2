package process

import (
	"errors"
	"sync"
)

// SupervisorOptions say how to start the supervisor (Supervise).
type SupervisorOptions struct {
	// Path is the executable re-executed as the supervisor: a program whose main calls
	// ServeSupervisor, before anything else, when IsSupervisorInvocation(os.Args). ""
	// means os.Executable().
	Path string
	// OnFallback, if set, is called once when the supervisor cannot be started or ends
	// unexpectedly; children are then started directly (as without Supervise) until stop.
	OnFallback func(error)
	// Prestart starts the supervisor now, in the background, rather than on the first
	// Start, which then waits for it only if it is not ready yet (a start of this binary
	// costs about 15 ms of CPU): for a program that is about to start children.
	Prestart bool
}

// ServeOptions configure the supervisor process itself (ServeSupervisor).
type ServeOptions struct {
	// RemoveDir removes a directory registered with RemoveOnAbruptEnd, once every process
	// is gone (nil: os.RemoveAll).
	RemoveDir func(dir string) error
}

// supervisorArg is argv[1] of a supervisor: no command of any CLI, so a program finds out
// before its flag parsing whether it was started as one.
const supervisorArg = "--fastbrowser-process-supervisor"

// IsSupervisorInvocation reports whether args (os.Args) are those Supervise starts the
// supervisor with: the program must then call ServeSupervisor and exit with its result.
func IsSupervisorInvocation(args []string) bool {
	return len(args) == 3 && args[1] == supervisorArg
}

// errSupervisorLost: the supervisor ended before it answered; the start is tried directly.
var errSupervisorLost = errors.New("process: the supervisor ended")

// sv is the package's switch: while Supervise is in effect, Start routes children through
// a supervisor, started on the first Start that needs one.
var sv struct {
	sync.Mutex
	opts   *SupervisorOptions
	cur    *supervisor
	direct bool            // it could not be started or was lost: direct starts until stop
	dirs   map[string]bool // RemoveOnAbruptEnd's, told to every supervisor started
}

// Supervise makes Start hand every child from now on to a supervisor process (started on
// the first Start, so a program that starts nothing pays nothing) instead of forking it
// here, so that nothing this process started outlives it, also when it dies by SIGKILL:
//
//   - the supervisor is a child subreaper: every orphan in the tree (a daemon that called
//     setsid and double-forked) becomes its child;
//   - it dies with this process (Pdeathsig, and EOF on its control socket) and then
//     SIGKILLs every descendant, reaps them all, and removes the directories registered
//     with RemoveOnAbruptEnd (a browser's temporary profile);
//   - every child's environment names it (pid and start time), so the next supervisor to
//     start, here or in another fastbrowser process, kills what one killed together with
//     its parent left behind (a crash of the host).
//
// The children keep Process's whole API and semantics: Stop, Kill and KillAll still signal
// their process groups from here. stop ends the supervisor after an orderly run (it kills
// whatever is left, of which there should be nothing) and returns Start to direct starts.
// A supervisor that cannot be started (no /proc, not Linux) or ends unexpectedly makes
// Start fall back to direct starts, after one call of opts.OnFallback.
func Supervise(opts SupervisorOptions) (stop func()) {
	sv.Lock()
	sv.opts, sv.direct = &opts, false
	sv.Unlock()
	if opts.Prestart {
		go supervisorFor()
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			sv.Lock()
			cur := sv.cur
			sv.opts, sv.cur, sv.direct = nil, nil, false
			sv.Unlock()
			if cur != nil {
				cur.close()
			}
		})
	}
}

// supervisorFor is the supervisor Start should use, starting it when needed, or nil for a
// direct start.
func supervisorFor() *supervisor {
	sv.Lock()
	defer sv.Unlock()
	if sv.opts == nil || sv.direct {
		return nil
	}
	if sv.cur != nil && !sv.cur.isGone() {
		return sv.cur
	}
	var err error
	if sv.cur != nil {
		err = errors.New("the process supervisor ended unexpectedly (its children were killed)")
	} else {
		dirs := make([]string, 0, len(sv.dirs))
		for d := range sv.dirs {
			dirs = append(dirs, d)
		}
		sv.cur, err = startSupervisor(*sv.opts, dirs)
	}
	if err != nil {
		sv.cur, sv.direct = nil, true
		if sv.opts.OnFallback != nil {
			sv.opts.OnFallback(err)
		}
		return nil
	}
	return sv.cur
}

// RemoveOnAbruptEnd registers dir (absolute) for removal by the supervisor if it ends
// without this process's orderly stop: after a SIGKILL of this process, once every process
// it started is gone. ForgetRemoval takes it back once the owner removed dir itself. Without
// a supervisor both only keep the list.
func RemoveOnAbruptEnd(dir string) { tellDir(msgRemove, dir) }

// ForgetRemoval undoes RemoveOnAbruptEnd(dir).
func ForgetRemoval(dir string) { tellDir(msgKeep, dir) }

func tellDir(kind, dir string) {
	sv.Lock()
	defer sv.Unlock()
	if sv.dirs == nil {
		sv.dirs = map[string]bool{}
	}
	if kind == msgRemove {
		sv.dirs[dir] = true
	} else {
		delete(sv.dirs, dir)
	}
	if sv.cur != nil {
		sv.cur.tell(kind, dir)
	}
}
