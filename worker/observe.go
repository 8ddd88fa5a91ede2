package worker

import (
	"context"
	"errors"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

var _ = handlesTab((*Worker).observe)

// observe builds the page outline from the accessibility trees of the tab's frames (main,
// same-process and out-of-process), within the observation budget.
func (w *Worker) observe(ctx context.Context, t *tab, r *transport.Observe, _ policy.Policy) (transport.Result, error) {
	maxNodes, _ := budgets.OutlineNodes().Resolve(r.MaxNodes)
	maxDepth, _ := budgets.OutlineDepth().Resolve(r.MaxDepth)
	maxText, _ := budgets.OutlineTextChars().Resolve(r.MaxTextChars)
	ctx, cancel := context.WithTimeout(ctx, budgets.Observation().Default)
	defer cancel()
	deadline, _ := ctx.Deadline()

	// The page info first, while the renderer is idle; then reading frames gets the rest of
	// the budget less a reserve for building the outline: a huge page read in windows
	// answers truncated when its time is up, not with a timeout. A document that commits
	// between the two (a navigation a click started) would give the old page's URL and
	// title with the new page's tree: the look is taken again, within the same budget.
	var info struct {
		pageText
		Status int     `json:"status"` // the committed document's own (0: unknown)
		Stamp  float64 `json:"stamp"`  // the document's performance.timeOrigin: its identity
	}
	var loader string
	var frames []outline.Frame
	swaps := 0
	for attempt := 0; ; attempt++ {
		t.mu.Lock()
		loader = t.loader
		t.mu.Unlock()
		if err := w.evaluate(ctx, t, documentInfoScript, &info); err != nil {
			if swapped(ctx, err, &swaps) {
				attempt--
				continue
			}
			return nil, w.cdpFailure(transport.OpObserve, transport.NotAttempted, err)
		}
		fctx, fcancel := context.WithDeadline(ctx, deadline.Add(-budgets.ObserveReserve))
		var err error
		frames, err = w.axFrames(fctx, t)
		fcancel()
		if err != nil {
			if swapped(ctx, err, &swaps) {
				attempt--
				continue
			}
			return nil, w.cdpFailure(transport.OpObserve, transport.NotAttempted, err)
		}
		// The tab's loader moves when Chromium's frameNavigated event has been handled, which
		// can be after the tree was read: the document's own stamp, read again, says whether
		// the page info and the tree are of one document.
		// A renderer still busy with a huge page may not answer within the part of the reserve
		// it gets: the loader alone then decides, as it did before the stamp.
		var stamp float64
		sctx, scancel := context.WithTimeout(ctx, budgets.ObserveStampWait)
		err = w.evaluate(sctx, t, documentStampScript, &stamp)
		stampLate := err != nil && sctx.Err() != nil
		scancel()
		if err != nil && !stampLate {
			if swapped(ctx, err, &swaps) {
				attempt--
				continue
			}
			return nil, w.cdpFailure(transport.OpObserve, transport.NotAttempted, err)
		}
		t.mu.Lock()
		same := t.loader == loader && (stampLate || stamp == info.Stamp)
		t.mu.Unlock()
		if same || ctx.Err() != nil {
			break // out of time: the look as it is, as before the stamp
		}
		if attempt == budgets.ObserveRetakes {
			return nil, transport.NewError(transport.OpObserve, transport.PhaseExecute, transport.CodeStaleDocument, transport.RetrySafe, transport.NotAttempted,
				"the page replaced its document while it was read, %d times; no look described one document", budgets.ObserveRetakes+1)
		}
	}
	t.mu.Lock()
	refs := t.refsFor(loader)
	t.mu.Unlock()
	out := outline.Build(frames, outline.Options{MaxNodes: maxNodes, MaxDepth: maxDepth, MaxTextChars: maxText,
		PageURL: info.URL, Clip: w.clipScrubbed, RefFor: func(k outline.NodeKey) string {
			t.mu.Lock()
			defer t.mu.Unlock()
			return refs.refFor(k, &w.refSeq)
		}})
	t.mu.Lock()
	refs.remember(out.Elements)
	t.mu.Unlock()
	nodes := out.Nodes
	if nodes == nil {
		nodes = []transport.OutlineNode{}
	}
	return &transport.ObserveResult{Tab: string(t.id), URL: info.URL, Title: info.Title, DocumentID: documentID(t.id, loader),
		PageClass: outline.Classify(out, info.Title, info.Status), Truncated: out.Truncated, Nodes: nodes, Text: out.Text}, nil
}

// axFrames fetches the AX tree of every frame of the tab: the frames of the tab's own
// session (the main frame and same-process iframes), then each out-of-process frame's
// through its own session, placed under its <iframe> (Frame.Owner in the parent's session).
// An out-of-process frame that cannot be read (it detached, or is still paused) is left out
// of the outline; masking keeps its own fail-closed inventory of frames (mask.go).
func (w *Worker) axFrames(ctx context.Context, t *tab) ([]outline.Frame, error) {
	frames, err := w.sessionFrames(ctx, t, "", t.c)
	if err != nil {
		return nil, err
	}
	for _, f := range t.oopifs() {
		fs, err := w.sessionFrames(ctx, t, f.id, f.c)
		if err == nil {
			var owner dom.BackendNodeID
			if owner, err = t.owner(ctx, f); err == nil {
				fs[0].Owner, fs[0].OwnerSession = owner, f.parent
				frames = append(frames, fs...)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				frames[0].Partial = true // out of time: the frames not read make it truncated
				break
			}
			w.log.Printf("out-of-process frame left out of the outline: %v", err)
		}
	}
	return frames, nil
}

// sessionFrames fetches the AX trees of one session's frames: its main frame first, then its
// same-process iframes. Frames in another process answer with an error and are skipped here:
// they have sessions of their own.
func (w *Worker) sessionFrames(ctx context.Context, t *tab, session string, c *cdp.Client) ([]outline.Frame, error) {
	if err := requestDocument(ctx, c); err != nil {
		return nil, err
	}
	n, err := countElements(ctx, c)
	if err != nil {
		return nil, err
	}
	if n > fullTreeElements {
		f, err := w.boundedFrame(ctx, t, session, c)
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		if err == nil {
			if f.Passwords, err = passwordFields(ctx, c); err != nil && ctx.Err() == nil {
				return nil, err
			}
		}
		// Out of time: what was read is the outline, truncated (Partial).
		return []outline.Frame{f}, nil
	}
	// With the Accessibility domain enabled Chromium keeps the tree up to date instead of
	// building it from scratch for every getFullAXTree.
	if !t.axOn(session) {
		if err := c.Accessibility.Enable(ctx); err != nil {
			return nil, err
		}
		t.setAXOn(session)
	}
	tree, err := c.Page.GetFrameTree(ctx)
	if err != nil {
		return nil, err
	}
	var frames []outline.Frame
	var walk func(ft page.FrameTree, root bool) error
	walk = func(ft page.FrameTree, root bool) error {
		ax, err := c.Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs().SetFrameID(ft.Frame.ID))
		switch {
		case err != nil && root:
			return err
		case err == nil:
			f := outline.Frame{Nodes: ax.Nodes, Session: session}
			if !root {
				owner, oerr := c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(ft.Frame.ID))
				if oerr == nil {
					f.Owner, f.OwnerSession = owner.BackendNodeID, session
				}
			}
			frames = append(frames, f)
		}
		for _, child := range ft.ChildFrames {
			if err := walk(child, false); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(tree.FrameTree, true); err != nil {
		return nil, err
	}
	// Chromium gives an empty password field the plain textbox role; the outline needs to
	// know which fields are passwords to render and classify them (never to read them).
	pw, err := passwordFields(ctx, c)
	if err != nil {
		return nil, err
	}
	for i := range frames {
		frames[i].Passwords = pw
	}
	return frames, nil
}

// passwordFields finds every password input of a session's document and its same-process
// frames with one DOM search (after requestDocument).
// Past budgets.OutlineSearchResults the rest are outlined as plain text fields: names only,
// never values (screenshots find password fields again, without a bound).
func passwordFields(ctx context.Context, c *cdp.Client) ([]dom.BackendNodeID, error) {
	found, _, err := searchNodes(ctx, c, `input[type="password" i]`)
	return found, err
}

// requestDocument has a session's DOM agent take its document, which a DOM search needs
// first. Once per read of the session: each DOM.getDocument also drops the node ids the
// previous one handed out, and costs a round trip.
func requestDocument(ctx context.Context, c *cdp.Client) error {
	_, err := c.DOM.GetDocument(ctx, dom.NewGetDocumentArgs().SetDepth(0))
	return err
}

// searchNodes finds the elements a CSS selector matches in a session's document and its
// same-process frames, with one DOM search (after requestDocument), at most
// budgets.OutlineSearchResults of them; all says whether that was every match.
func searchNodes(ctx context.Context, c *cdp.Client, selector string) (found []dom.BackendNodeID, all bool, err error) {
	s, err := c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs(selector))
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID)) }()
	if s.ResultCount == 0 {
		return nil, true, nil
	}
	// Bounded: a page of 50 000 matches would otherwise cost as many round trips.
	res, err := c.DOM.GetSearchResults(ctx, dom.NewGetSearchResultsArgs(s.SearchID, 0, min(s.ResultCount, budgets.OutlineSearchResults)))
	if err != nil {
		return nil, false, err
	}
	out := make([]dom.BackendNodeID, 0, len(res.NodeIDs))
	for _, id := range res.NodeIDs {
		d, err := c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(id))
		if err != nil {
			return nil, false, err
		}
		out = append(out, d.Node.BackendNodeID)
	}
	return out, len(out) == s.ResultCount, nil
}

// swapped says whether an observe that failed with err should look again: the browser
// answered that a node or execution context it was reading no longer exists, which is a
// document being replaced under the look (a navigation a click started, committing now).
// It pauses for budgets.ObserveSwapPause first, at most budgets.ObserveSwapRetakes times per
// observe and never past its budget.
func swapped(ctx context.Context, err error, swaps *int) bool {
	var re *rpcc.ResponseError
	if !errors.As(err, &re) || re.Code != -32000 || *swaps >= budgets.ObserveSwapRetakes || ctx.Err() != nil {
		return false
	}
	*swaps++
	timer := time.NewTimer(budgets.ObserveSwapPause)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// documentStampScript reads the current document's time origin (documentInfoScript's stamp).
const documentStampScript = `performance.timeOrigin`
