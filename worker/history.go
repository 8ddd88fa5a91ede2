package worker

import (
	"context"
	"errors"
	"strings"

	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var (
	_ = handlesTab((*Worker).goBack)
	_ = handlesTab((*Worker).goForward)
)

// goBack and goForward step through the tab's session history as the browser's buttons do,
// under navigate's policy and budget.
func (w *Worker) goBack(ctx context.Context, t *tab, _ *transport.GoBack, pol policy.Policy) (transport.Result, error) {
	return w.goHistory(ctx, t, transport.OpGoBack, -1, pol)
}

func (w *Worker) goForward(ctx context.Context, t *tab, _ *transport.GoForward, pol policy.Policy) (transport.Result, error) {
	return w.goHistory(ctx, t, transport.OpGoForward, +1, pol)
}

// goHistory goes to the entry delta steps from the current one. The entry's URL is checked
// against the policy before anything is done: the runtime cannot (it does not know the
// history), and going there and refusing the request would leave an error page behind. A
// new document is waited for up to its load event, as navigate does; a same-document entry
// (a hash route, a pushState) commits without one, so its commit is all there is to wait for.
func (w *Worker) goHistory(ctx context.Context, t *tab, op string, delta int, pol policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.Navigation().Default)
	defer cancel()
	h, err := t.c.Page.GetNavigationHistory(ctx)
	if err != nil {
		return nil, w.cdpFailure(op, transport.NotAttempted, err)
	}
	i := h.CurrentIndex + delta
	// A tab begins at about:blank, which stays its first entry: that is no page to go to.
	if i < 0 || i >= len(h.Entries) || h.Entries[i].URL == "about:blank" {
		return nil, transport.NewError(op, transport.PhaseValidate, transport.CodeNavigationFailed, transport.RetryNever, transport.NotAttempted,
			"no history entry to go %s to", direction(delta))
	}
	if _, err := pol.CheckURL(h.Entries[i].URL); err != nil {
		var de *policy.DeniedError
		if errors.As(err, &de) {
			return nil, transport.NewError(op, transport.PhasePolicy, transport.CodeOriginDenied, transport.RetryNever, transport.NotAttempted,
				"the history entry to go %s to is refused, nothing was done: %s", direction(delta), de.Reason)
		}
		return nil, transport.PolicyRefusal(op, "request", err)
	}
	nw, err := w.watchNavigation(t)
	if err != nil {
		return nil, w.cdpFailure(op, transport.NotAttempted, err)
	}
	defer nw.end()
	if err := t.c.Page.NavigateToHistoryEntry(ctx, page.NewNavigateToHistoryEntryArgs(h.Entries[i].ID)); err != nil {
		return nil, w.cdpFailure(op, transport.Unknown, err)
	}
	var s navState
	refused := false
	if err := t.waitFor(ctx, func() bool {
		s, refused = nw.state(), w.unloadRefused(t, nw.unload)
		return s.loaded || s.within && !s.committed || s.refused || refused ||
			s.stopped && !s.committed
	}); err != nil {
		return nil, w.loadWaitFailure(t, op, err)
	}
	switch {
	case refused:
		return nil, navigationRefused(op)
	case s.refused:
		// handle turns the refusal into egress_denied; there is no document to describe.
		return nil, transport.NewError(op, transport.PhaseExecute, transport.CodeNavigationFailed, transport.RetryUnsafe, transport.Unknown,
			"navigation failed: the origin policy refused a request of it")
	case !s.loaded && !s.within:
		// Loading stopped with no commit seen: the browser's history says whether the
		// entry is the current one now.
		now, err := t.c.Page.GetNavigationHistory(ctx)
		if err != nil {
			return nil, w.cdpFailure(op, transport.Unknown, err)
		}
		if now.CurrentIndex < 0 || now.CurrentIndex >= len(now.Entries) || now.Entries[now.CurrentIndex].ID != h.Entries[i].ID {
			return nil, transport.NewError(op, transport.PhaseExecute, transport.CodeNavigationFailed, transport.RetryUnsafe, transport.Unknown,
				"navigation failed: the history entry did not commit")
		}
	}
	res, err := w.documentResult(ctx, t, op)
	if err != nil {
		return nil, err
	}
	if nr, ok := res.(*transport.NavigateResult); ok && strings.HasPrefix(nr.URL, "chrome-error:") {
		return nil, transport.NewError(op, transport.PhaseExecute, transport.CodeNavigationFailed, transport.RetryUnsafe, transport.Unknown,
			"navigation failed: the browser showed its error page")
	}
	return res, nil
}

func direction(delta int) string {
	if delta < 0 {
		return "back"
	}
	return "forward"
}
