package runtime

import (
	"errors"
	"sync"

	"github.com/fastbrowser/fastbrowser/transport"
)

// BrowserPid is the process id of the browser this session launched, 0 when it attached to
// one it does not own (tests use it to kill the browser under a live session).
func (r *Runtime) BrowserPid() int {
	if r.browser == nil {
		return 0
	}
	return r.browser.Pid()
}

// crashNotice calls Options.OnBrowserCrash once.
type crashNotice struct {
	once   sync.Once
	notify func()
}

// browserDied reports a worker failure as the browser's when the browser this session owns
// has died: a worker that went down with its browser is not the cause. Only an owned
// browser's process can be checked; an attached browser's death is the worker's to report
// (it watches its browser connection). Either way the first browser_crashed is announced to
// Options.OnBrowserCrash.
func (r *Runtime) browserDied(op transport.Operation, err error) error {
	if r.browser != nil && errors.Is(err, transport.ErrCode(transport.CodeWorkerCrashed)) && r.browser.Exited() {
		oe := *transport.AsOperationError(op.OpName(), err)
		oe.Code, oe.Retry = transport.CodeBrowserCrashed, transport.RetryNever
		oe.Message = "the browser died, and the worker with it"
		if st := r.browser.ExitStatus(); st != "" {
			oe.Message = "the browser died (" + st + "), and the worker with it"
		}
		err = &oe
	}
	if r.crash.notify != nil && errors.Is(err, transport.ErrCode(transport.CodeBrowserCrashed)) {
		r.crash.once.Do(r.crash.notify)
	}
	return err
}
