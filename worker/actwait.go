package worker

import (
	"context"
	"errors"
	"time"

	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// ready is an act's target when the action may start: located, actionable, and, for an
// action that puts the pointer on it, with the point it aims at (nothing covers it unless
// force). A press without a target has no element. dragTo's drop target is ready too.
type ready struct {
	el *element
	st elementState
	at point
	to *ready
}

// awaitTarget locates the act's target and checks that the action can use it, and does both
// again every budgets.ActPoll while what stands in the way is something waiting may cure (a
// *notYet: no match yet, hidden, disabled, covered), like a bounded assert. The wait is the
// action-verification budget, or the request budget when that is shorter. Only locating and
// read-only checks repeat; nothing here dispatches input, so a target that never became ready
// fails not_attempted. What waiting cannot cure fails at once: a stale or unknown ref, two
// matches (they will not become one), an element of the wrong kind, a failed DevTools call
// other than the document being replaced under a look by role and name.
func (w *Worker) awaitTarget(ctx context.Context, t *tab, r *transport.Act) (ready, error) {
	wait := min(budgets.ActionVerification().Default, transport.RequestBudget(ctx))
	within := "the action budget (" + wait.String() + ")"
	if wait < budgets.ActionVerification().Default {
		within = "the request budget (" + wait.String() + ")"
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	var last *notYet
	for {
		rd, err := w.readyTarget(wctx, t, r)
		if err == nil {
			return rd, nil
		}
		var ny *notYet
		switch {
		case errors.As(err, &ny):
			if last == nil || wctx.Err() == nil {
				last = ny // a look the wait's end cut short keeps the reason before it
			}
		case last != nil && wctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled):
			return ready{}, last.after(transport.OpAct, within) // the wait ended inside a look
		case r.Target.Ref == "" && documentGone(err) && wctx.Err() == nil:
			// The document was replaced while the target was looked for by role and name
			// (a navigation committing): the next look finds it in the new one, if it is
			// there. A ref names an element of the old document and fails at once.
		default:
			return ready{}, err
		}
		select {
		case <-time.After(budgets.ActPoll):
		case <-wctx.Done():
			if errors.Is(ctx.Err(), context.Canceled) {
				return ready{}, w.cdpFailure(transport.OpAct, transport.NotAttempted, ctx.Err())
			}
			if last == nil { // every look met a document being replaced
				return ready{}, w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
			}
			return ready{}, last.after(transport.OpAct, within)
		}
	}
}

// readyTarget looks once: locate, check, find the action point; for dragTo, the drop
// target as well (ready as for a hover: visible, stable, receiving events), in the same look
// and so within the same budget.
func (w *Worker) readyTarget(ctx context.Context, t *tab, r *transport.Act) (ready, error) {
	if r.Target.IsZero() {
		return ready{}, nil // press on the page's focused element
	}
	rd, err := w.readyOne(ctx, t, r)
	if err != nil || r.Action != transport.ActDragTo || r.To == nil {
		return rd, err
	}
	to, err := w.readyOne(ctx, t, &transport.Act{Action: transport.ActHover, Target: *r.To, Force: r.Force})
	if err != nil {
		return ready{}, err
	}
	rd.to = &to
	return rd, nil
}

// readyOne locates the act's target, scrolls it into view when the pointer goes to it (first,
// so the state read and the hit test see the box in one place), reads its state, checks it
// (actionable), waits for it to hold still when the action wants it stable, and finds its
// action point.
func (w *Worker) readyOne(ctx context.Context, t *tab, r *transport.Act) (ready, error) {
	el, err := w.locate(ctx, t, r.Target)
	if err != nil {
		return ready{}, err
	}
	if aims(r.Action) {
		_ = el.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetBackendNodeID(el.Backend))
	}
	st, err := w.readState(ctx, t, el)
	if err != nil {
		return ready{}, w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	if err := actionable(r, el, st); err != nil {
		return ready{}, err
	}
	need := checksFor(r)
	if need.stable {
		still, err := w.stable(ctx, t, el, st)
		if err != nil {
			return ready{}, w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
		}
		if !still {
			return ready{}, notActionable(el, "is not stable (its box is moving)")
		}
	}
	rd := ready{el: el, st: st}
	if clicks(r, st) {
		at, err := w.actionPoint(ctx, t, el, r.Position, st, need)
		if err != nil {
			return ready{}, err
		}
		rd.at = at
	}
	return rd, nil
}

// clicks reports whether the action will put the pointer on the element: a click, dblclick,
// hover or dragTo, or a check or uncheck that changes its state.
func clicks(r *transport.Act, st elementState) bool {
	switch r.Action {
	case transport.ActCheck, transport.ActUncheck:
		return st.Checked != (r.Action == transport.ActCheck)
	}
	return aims(r.Action)
}

// notYet is why an act's or an assertion's target is not ready that waiting may cure. It
// never leaves the worker: when the wait ends, after turns it into the error.
type notYet struct {
	code transport.Code
	msg  string // what is not so: `no button named "Save"`, `e3 button "Save" is disabled`
	// hint follows the message: what else there is (`; a link named "Save" exists`).
	hint string
	// appeared: msg names something that never appeared ("… appeared within …"), not a
	// state that never changed ("…; waited …").
	appeared bool
}

func (n *notYet) Error() string { return n.msg + n.hint }

// after is the error once the wait within a budget (`the action budget (3s)`; "" for one
// read, no wait) was in vain: still element_not_found or element_not_actionable, naming what
// never happened and the budget it waited.
func (n *notYet) after(op, within string) error {
	var msg string
	switch {
	case within == "":
		msg = n.msg + " (one read)" + n.hint
	case n.appeared:
		msg = n.msg + " appeared within " + within + n.hint
	default:
		msg = n.msg + n.hint + "; waited out " + within
	}
	return transport.NewError(op, transport.PhaseValidate, n.code, transport.RetrySafe, transport.NotAttempted, "%s", msg)
}

// notActionable is a found element that the action cannot use yet.
func notActionable(el *element, why string) *notYet {
	return &notYet{code: transport.CodeElementNotActionable, msg: el.Ref + " " + el.Role + " " + quote(el.Name) + " " + why}
}
