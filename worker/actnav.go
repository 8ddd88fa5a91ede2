package worker

import (
	"context"
	"errors"

	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Navigation after an action, as Playwright waits for it: an act whose input starts a
// navigation of the tab's main frame returns once the new document has committed and
// fired its load event, within what is left of the act's request budget, so the next
// operation meets the new page and a navigate that follows does not cut the act's short
// (net::ERR_ABORTED). Only navigations asked for while the action runs count: from just
// before its input until the page has taken one turn of its task queue after it (a form
// submit is queued as a task, not run in the click). noWaitAfter opts out.

// actNavigation starts watching for a navigation the act's input may start; nil (nothing is
// waited for) with noWaitAfter, or when the watch cannot start (the act goes on as before).
func (w *Worker) actNavigation(t *tab, r *transport.Act) *actNav {
	if r.NoWaitAfter {
		return nil
	}
	nw, err := w.watchNavigation(t)
	if err != nil {
		w.log.Printf("act: cannot watch for navigation: %v", err)
		return nil
	}
	return &actNav{w: w, t: t, nw: nw}
}

// actNav is one act's watch.
type actNav struct {
	w  *Worker
	t  *tab
	nw *navWatch
}

func (a *actNav) end() {
	if a != nil {
		a.nw.end()
	}
}

// wait runs once the action's input is dispatched: if a navigation was asked for or
// started, it waits for it to commit and load. One that does not commit (aborted, a 204,
// a download), a same-document one, a refused one (handle reports the refusal) and a tab
// that closed end the wait without error. Out of budget, the action was still done: the
// error is a timeout that says so, with the action's mutation state.
func (a *actNav) wait(ctx context.Context, mut transport.MutationState) error {
	if a == nil {
		return nil
	}
	defer a.end()
	a.settle(ctx)
	var s navState
	refused := false
	err := a.t.waitFor(ctx, func() bool {
		s, refused = a.nw.state(), a.w.unloadRefused(a.t, a.nw.unload)
		switch {
		case !s.started && !s.committed, s.loaded, s.refused, refused:
			return true
		case !s.committed:
			return s.within || s.stopped
		}
		return false
	})
	switch {
	case err == nil, errors.Is(err, errTabGone):
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return transport.NewError(transport.OpAct, transport.PhaseExecute, transport.CodeTimeout, transport.RetryUnsafe, mut,
			"the action was done, and the navigation it started did not finish loading within the request budget (%s)", transport.RequestBudget(ctx))
	}
	return a.w.cdpFailure(transport.OpAct, mut, err)
}

// settle lets the page take one turn of its task queue after the input (a timer task is
// queued behind what the input's handlers queued), bounded by budgets.ActSettle. Its
// answer does not matter: a document that went away meanwhile is a navigation the watch saw.
func (a *actNav) settle(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, budgets.ActSettle)
	defer cancel()
	if s := a.nw.peek(); s.started || s.committed {
		return // already under way: nothing to wait a turn for
	}
	world, err := a.t.isolatedWorld(ctx)
	if err != nil {
		return
	}
	_, _ = a.t.c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs(`new Promise(r => setTimeout(r, 0))`).
		SetContextID(world).SetAwaitPromise(true).SetSilent(true))
}
