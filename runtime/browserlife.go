package runtime

import (
	"errors"
	"sync"

	"github.com/fastbrowser/fastbrowser/transport"
)

// BrowserPid is the process id of the launched browser this session runs in (its own or
// its Allocator's), 0 when it attached to one it does not own (tests use it to kill the
// browser under a live session).
func (r *Runtime) BrowserPid() int {
	if r.launched == nil {
		return 0
	}
	return r.launched.Pid()
}

// crashNotice tells the session's Allocator and Options.OnBrowserCrash, once.
type crashNotice struct {
	once   sync.Once
	notify func()
}

// browserDied reports a worker failure as the browser's when the launched browser this
// session runs in has died: a worker that went down with its browser is not the cause. Only
// a launched browser's process can be checked; an attached browser's death is the worker's
// to report (it watches its browser connection). Either way the first browser_crashed is
// announced to the Allocator and Options.OnBrowserCrash.
func (r *Runtime) browserDied(op transport.Operation, err error) error {
	if r.launched != nil && errors.Is(err, transport.ErrCode(transport.CodeWorkerCrashed)) && r.launched.Exited() {
		oe := *transport.AsOperationError(op.OpName(), err)
		oe.Code, oe.Retry = transport.CodeBrowserCrashed, transport.RetryNever
		oe.Message = "the browser died, and the worker with it"
		if st := r.launched.ExitStatus(); st != "" {
			oe.Message = "the browser died (" + st + "), and the worker with it"
		}
		err = &oe
	}
	if errors.Is(err, transport.ErrCode(transport.CodeBrowserCrashed)) {
		r.crash.once.Do(func() {
			r.alloc.noteCrash()
			if r.crash.notify != nil {
				r.crash.notify()
			}
		})
	}
	return err
}

// Stale reports whether the session can no longer serve a call, seen from outside without
// making one: its worker exited, or the launched browser it runs in did. `run` asks it of a
// session opened ahead before handing it to its scenario. An attached browser's death only
// shows in a call (the session's Options.OnBrowserCrash hears of it).
func (r *Runtime) Stale() bool {
	return r.worker.proc.Exited() || (r.launched != nil && r.launched.Exited())
}
