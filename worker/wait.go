package worker

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handlesTab((*Worker).wait)

// wait waits, reading only, for the tab's current document to reach a load state, for its
// URL to match with its document loaded (waitForURL's default waitUntil "load"), or for a
// fixed time. Which document is current, and its URL, are asked of the browser on each look
// (Page.getFrameTree: the main frame's URL, fragment and loader in one answer), so a commit
// the tab's own event stream has not caught up with yet is never mistaken for the document
// before it; the load states come from Chromium's lifecycle events, kept per document by
// tab.watch, so a state the document already reached answers at once.
func (w *Worker) wait(ctx context.Context, t *tab, r *transport.Wait, _ policy.Policy) (transport.Result, error) {
	within := transport.WaitBudget(r)
	if r.DurationMs > 0 {
		timer := time.NewTimer(within)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			return nil, w.cdpFailure(transport.OpWait, transport.NotAttempted, ctx.Err())
		}
		f, err := w.mainFrame(ctx, t)
		if err != nil {
			return nil, w.cdpFailure(transport.OpWait, transport.NotAttempted, err)
		}
		return waitResult(t, f), nil
	}
	state, match := r.LoadState, func(string) bool { return true }
	if r.URL != nil {
		m, err := transport.URLMatcher(r.URL)
		if err != nil { // Validate compiled it already
			return nil, transport.Invalid(transport.OpWait, "request.url", "not a pattern this worker can compile")
		}
		state, match = transport.LoadStateLoad, m
	}
	wctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	var last page.Frame
	for {
		f, err := w.mainFrame(wctx, t)
		var changed <-chan struct{}
		switch {
		case err == nil:
			last = f
			t.mu.Lock()
			reached := t.reachedLocked(state, string(f.LoaderID))
			changed = t.changed
			t.mu.Unlock()
			if reached && match(frameURL(f)) {
				return waitResult(t, f), nil
			}
		case wctx.Err() == nil:
			return nil, w.cdpFailure(transport.OpWait, transport.NotAttempted, err)
		}
		// The tab's changes wake the wait (a commit, a lifecycle event); the poll sees a
		// same-document navigation (a hash change, a pushState), which changes no tab state.
		select {
		case <-changed:
		case <-time.After(budgets.WaitPoll):
		case <-wctx.Done():
			if err := ctx.Err(); err != nil { // the call was cancelled, not out of its time
				return nil, w.cdpFailure(transport.OpWait, transport.NotAttempted, err)
			}
			return nil, waitTimedOut(t, r, within, last)
		}
	}
}

// waitTimedOut says what the wait waited for and what the page had when it ended: its URL
// without query or fragment (either may hold a token) and the last load state its document
// reached.
func waitTimedOut(t *tab, r *transport.Wait, within time.Duration, last page.Frame) error {
	budget := "the wait budget (" + within.String() + ")"
	if r.TimeoutMs > 0 {
		budget = "the wait's timeoutMs (" + within.String() + ")"
	}
	what := "the load state " + r.LoadState
	if r.URL != nil {
		what = "the URL to match " + r.URL.Describe() + " and its document to load"
	}
	reached := "has not reached domcontentloaded"
	t.mu.Lock()
	for _, s := range transport.LoadStates {
		if t.reachedLocked(s, string(last.LoaderID)) {
			reached = "reached " + s
		}
	}
	t.mu.Unlock()
	there := "the page's document " + reached
	if last.URL != "" {
		there = "the page is at " + quote(urlWithoutQuery(frameURL(last))) + " and its document " + reached
	}
	return transport.NewError(transport.OpWait, transport.PhaseExecute, transport.CodeTimeout, transport.RetrySafe, transport.NotAttempted,
		"waited %s for %s: %s", budget, what, there)
}

// waitResult is the document the wait ended on.
func waitResult(t *tab, f page.Frame) *transport.WaitResult {
	return &transport.WaitResult{Tab: string(t.id), URL: frameURL(f), DocumentID: documentID(t.id, string(f.LoaderID))}
}

// mainFrame reads the tab's main frame: its URL and fragment and its document's loader,
// from one answer of the browser.
func (w *Worker) mainFrame(ctx context.Context, t *tab) (page.Frame, error) {
	tree, err := t.c.Page.GetFrameTree(ctx)
	if err != nil {
		return page.Frame{}, err
	}
	return tree.FrameTree.Frame, nil
}

// frameURL is a frame's URL with its fragment, as location.href reads it.
func frameURL(f page.Frame) string {
	if f.URLFragment != nil {
		return f.URL + *f.URLFragment
	}
	return f.URL
}
