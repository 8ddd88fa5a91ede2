package runtime

import (
	"context"
	"fmt"
	"net/url"

	"github.com/fastbrowser/fastbrowser/transport"
)

// The admission point of a task's loop (seed 001: work samples the host's facts before
// every provider and effect admission). taskturn.go calls admit before every model call and
// every action dispatch; for a blocking task (no host) it admits everything. For a hosted
// task it refuses, sticky, once the task was stopped (cancelTask, a person, a handoff) or
// its lease or facts went stale, and otherwise marks the call in flight until its release.

// admission is what a task asks to start.
type admission int

const (
	admitModel  admission = iota // a model call: a cancel cancels it
	admitAction                  // an action dispatch: a cancel lets it finish and reconciles it
)

func (a admission) String() string {
	if a == admitModel {
		return "a model call"
	}
	return "an action"
}

// admit asks the task's host to start what, named as finishTask's task_busy names it while
// it is in flight ("" : by its kind, "a model call"); it returns the context the call runs
// under and its release, which is given the call's error and returns the error the task
// records (the stop's, when the task was stopped while the call was in flight).
func (t *taskRun) admit(ctx context.Context, what admission, name string, turn int) (context.Context, func(error) error, error) {
	if t.host == nil {
		return ctx, func(err error) error { return err }, nil
	}
	if err := t.sample(ctx); err != nil {
		return ctx, nil, err
	}
	if name == "" {
		name = what.String()
	}
	return t.host.admit(ctx, what, name, turn, t.page, t.mutation)
}

// inFlight names an action for its admission: its kind, and its element by role and ref
// ("act click on link e5"). Never by the element's name (the page's text) nor a navigate's
// url (the model's): a refusal the host reads carries neither.
func inFlight(a actArgs, node *transport.OutlineNode) string {
	if node == nil {
		return "act " + a.Action
	}
	return fmt.Sprintf("act %s on %s %s", a.Action, node.Role, node.Ref)
}

// sample stops a hosted task whose page a person must handle (a handoff class) or whose tab
// left the document the task last observed without the task (a navigation it did not make:
// its own are observed by its settlement). The document is read with a wait for a load
// state it already has, which answers at once.
func (t *taskRun) sample(ctx context.Context) error {
	if t.page == nil || t.host.stopped() {
		return nil // nothing to compare, or admit refuses anyway: no call to the page for it
	}
	if t.r.handoff[t.page.PageClass] {
		t.host.halt(transport.StopHandoff, stopped(transport.CodeHandoffRequired, "the page is classed "+t.page.PageClass+", a handoff class of this session: a person must take over; the task stopped and the session stays its host's"))
		return nil // admit reports the stop
	}
	res, err := t.r.call(withoutEvidence(ctx), &transport.Wait{Tab: t.tab, LoadState: transport.LoadStateDOMContentLoaded}, t.octx)
	if err != nil {
		return asTask(err, t.mutation)
	}
	if w, ok := res.(*transport.WaitResult); ok && w.DocumentID != t.page.DocumentID {
		t.host.halt(transport.StopNavigation, stopped(transport.CodeCancelled, "the tab left the document the task observed without the task acting (a navigation it did not make); the task stopped and the session stays its host's"))
	}
	return nil
}

// admit is the hosted task's admission: the sticky stop first, then the lease and the facts
// against the page the task last observed. Admitted, name is what is pending until release.
func (h *hostedTask) admit(ctx context.Context, what admission, name string, turn int, page *transport.ObserveResult, mut transport.MutationState) (context.Context, func(error) error, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stop == nil {
		if h.stop = h.stale(page, mut); h.stop != nil {
			h.stoppedBy = transport.StopStale
		}
	}
	if h.stop != nil {
		return ctx, nil, asTask(h.stop, mut)
	}
	h.pending = fmt.Sprintf("%s (turn %d)", name, turn)
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if what == admitModel {
		cctx, cancel = context.WithCancel(ctx)
		h.cancelCall = cancel
	}
	release := func(err error) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.pending, h.cancelCall = "", nil
		cancel()
		if what == admitModel && h.stop != nil {
			// The call was cancelled under it (or finished as the stop came): the turn
			// records the stop, and its reply, if any, is never acted on.
			return asTask(h.stop, mut)
		}
		return err
	}
	return cctx, release, nil
}

// stale is task_stale when the host's lease ran out or a fact it gave differs from the
// page; nil while fresh, or without a lease (under h.mu).
func (h *hostedTask) stale(page *transport.ObserveResult, mut transport.MutationState) error {
	if h.lease == 0 {
		return nil
	}
	if age := h.r.now().Sub(h.renewed); age > h.lease {
		return staleError(mut, "the host's lease ran out: the last refresh was %s ago and a lease lasts %s", age.Round(1e6), h.lease)
	}
	if h.badSample != "" {
		return staleError(mut, "%s", h.badSample)
	}
	if h.accountChanged {
		return staleError(mut, "the host's account label changed between refreshes")
	}
	if page == nil {
		return nil
	}
	if h.facts.Origin != "" && originOf(page.URL) != h.facts.Origin {
		return staleError(mut, "the page is not on the origin the host's last refresh named")
	}
	if h.facts.Document != "" && page.DocumentID != h.facts.Document {
		return staleError(mut, "the page is not the document the host's last refresh named")
	}
	return nil
}

func staleError(mut transport.MutationState, format string, args ...any) error {
	return transport.NewError(transport.OpTask, transport.PhasePolicy, transport.CodeTaskStale, transport.RetryNever, mut, format, args...)
}

// originOf is scheme://host[:port] of an address ("" for one that is not absolute).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// stopped says whether the task admits nothing more.
func (h *hostedTask) stopped() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stop != nil
}
