package worker

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/fastbrowser/fastbrowser/transport"
)

// browserLife knows whether the browser behind the worker is still there.
//
// Measured against Chromium 156 killed with SIGKILL: every CDP call or event stream on every
// websocket fails with rpcc's unexported closeError wrapping "websocket: close 1006
// (abnormal closure): unexpected EOF", or a *net.OpError "connection reset by peer" on a
// socket with writes in flight; never rpcc.ErrConnClosing itself, which errors.Is cannot
// see through. A tab closed by its page gives its own socket exactly the same error, and
// the tab sockets can close ~20 ms before the browser socket does. So only the browser
// connection tells a dead browser from a closed tab: its Context ends when it dies.
type browserLife struct {
	closing atomic.Bool // the worker closes the browser connection itself (teardown)
	// gone ends once the browser connection ended on its own; dead is its Done. A context,
	// so that each operation's context can end with it through context.AfterFunc, without a
	// goroutine of its own.
	gone context.Context
	kill context.CancelFunc
	dead <-chan struct{}
}

// connClosed reports whether err is rpcc's error for a connection that has closed, whatever
// closed it (the remote end, a reset, or our own Close): that error has a Closed method.
func connClosed(err error) bool {
	var c interface{ Closed() bool }
	return errors.As(err, &c) && c.Closed()
}

func (l *browserLife) init(lifetime context.Context) {
	l.gone, l.kill = context.WithCancel(lifetime)
	l.dead = l.gone.Done()
}

func (l *browserLife) markDead() { l.kill() }

func (l *browserLife) isDead() bool {
	select {
	case <-l.dead:
		return true
	default:
		return false
	}
}

// watchBrowser marks the browser dead when its connection ends without the worker having
// closed it. It starts once the browser connection is dialled.
func (w *Worker) watchBrowser() {
	done := w.bconn.Context().Done()
	go func() {
		<-done
		if !w.life.closing.Load() {
			w.log.Printf("the browser's DevTools connection closed: the browser is gone")
			w.life.markDead()
		}
	}()
}

// whileBrowserLives is ctx, cancelled as well when the browser dies, so an operation that is
// waiting on the page (an event, a popup) ends at once instead of at its budget.
func (w *Worker) whileBrowserLives(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	unhook := context.AfterFunc(w.life.gone, cancel)
	return ctx, func() { unhook(); cancel() }
}

// browserGone refuses an operation that arrives after the browser died: nothing of it can
// reach a page, and no retry on this session can help.
func (w *Worker) browserGone(op string) error {
	if spec, _ := transport.LookupOp(op); spec.EndsSession || !w.life.isDead() {
		return nil
	}
	return transport.NewError(op, transport.PhaseDispatch, transport.CodeBrowserCrashed, transport.RetryNever, transport.NotAttempted,
		"the browser is gone (its DevTools connection closed during an earlier operation); open a new session")
}

// blameBrowser turns the outcome of an operation that was in flight when the browser died
// into browser_crashed. A failed operation's own mutation state stands (it knows whether
// input was dispatched); one that never mutates reports not_attempted, and a mutating one
// that completed as the browser died reports unknown: its session is gone either way.
func (w *Worker) blameBrowser(op transport.Operation, res transport.Result, err error) (transport.Result, error) {
	if transport.SpecOf(op).EndsSession {
		return res, err
	}
	if err == nil && !w.life.isDead() || err != nil && !w.diedDuring(err) {
		return res, err
	}
	mut := transport.NotAttempted
	if op.Mutates() {
		mut = transport.Unknown
		if err != nil {
			if m := transport.AsOperationError(op.OpName(), err).MutationState; m != "" {
				mut = m
			}
		}
	}
	return nil, transport.NewError(op.OpName(), transport.PhaseExecute, transport.CodeBrowserCrashed, transport.RetryNever, mut,
		"the browser died during the operation (its DevTools connection closed)").WithCause(err)
}

// diedDuring reports whether err came from the browser dying. A closed-connection error or a
// vanished tab is confirmed on the browser connection: a live browser answers at once, a
// dead one's connection fails (or is already marked dead) within moments.
func (w *Worker) diedDuring(err error) bool {
	if w.life.isDead() {
		return true
	}
	if !connClosed(err) && !errors.Is(err, errTabGone) {
		return false
	}
	ctx, cancel := w.callContext()
	defer cancel()
	probe := make(chan error, 1)
	go func() { _, err := w.bc.Browser.GetVersion(ctx); probe <- err }()
	select {
	case <-w.life.dead:
		return true
	case perr := <-probe:
		if connClosed(perr) && !w.life.closing.Load() {
			w.life.markDead()
			return true
		}
		return false
	}
}
