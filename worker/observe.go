package worker

import (
	"context"

	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
)

// observe builds the page outline from the accessibility tree of the main frame and its
// same-process iframes, within the observation budget.
func (w *Worker) observe(ctx context.Context, r *transport.Observe) (transport.Result, error) {
	t, err := w.tabFor(transport.OpObserve, r.Tab)
	if err != nil {
		return nil, err
	}
	maxNodes, _ := budgets.OutlineNodes.Resolve(r.MaxNodes)
	maxDepth, _ := budgets.OutlineDepth.Resolve(r.MaxDepth)
	maxText, _ := budgets.OutlineTextChars.Resolve(r.MaxTextChars)
	ctx, cancel := context.WithTimeout(ctx, budgets.Observation.Default)
	defer cancel()

	t.mu.Lock()
	loader := t.loader
	t.mu.Unlock()
	frames, err := w.axFrames(ctx, t)
	if err != nil {
		return nil, w.cdpFailure(transport.OpObserve, transport.NotAttempted, err)
	}
	var info pageText
	if err := w.evaluate(ctx, t, documentInfoScript, &info); err != nil {
		return nil, w.cdpFailure(transport.OpObserve, transport.NotAttempted, err)
	}
	t.mu.Lock()
	refs := t.refsFor(loader)
	status := t.status
	t.mu.Unlock()
	out := outline.Build(frames, outline.Options{MaxNodes: maxNodes, MaxDepth: maxDepth, MaxTextChars: maxText,
		PageURL: info.URL, RefFor: func(b dom.BackendNodeID) string {
			t.mu.Lock()
			defer t.mu.Unlock()
			return refs.refFor(b)
		}})
	t.mu.Lock()
	refs.remember(out.Elements)
	t.mu.Unlock()
	nodes := out.Nodes
	if nodes == nil {
		nodes = []transport.OutlineNode{}
	}
	return &transport.ObserveResult{Tab: string(t.id), URL: info.URL, Title: info.Title, DocumentID: documentID(t.id, loader),
		PageClass: outline.Classify(out, info.Title, status), Truncated: out.Truncated, Nodes: nodes, Text: out.Text}, nil
}

// axFrames fetches the AX tree of every frame this tab's connection can see. Frames in
// another process (cross-origin iframes under site isolation) are left out: reading them
// needs a session of their own.
func (w *Worker) axFrames(ctx context.Context, t *tab) ([]outline.Frame, error) {
	// With the Accessibility domain enabled Chromium keeps the tree up to date instead of
	// building it from scratch for every getFullAXTree.
	t.mu.Lock()
	enabled := t.axEnabled
	t.mu.Unlock()
	if !enabled {
		if err := t.c.Accessibility.Enable(ctx); err != nil {
			return nil, err
		}
		t.mu.Lock()
		t.axEnabled = true
		t.mu.Unlock()
	}
	tree, err := t.c.Page.GetFrameTree(ctx)
	if err != nil {
		return nil, err
	}
	var frames []outline.Frame
	var walk func(ft page.FrameTree, root bool) error
	walk = func(ft page.FrameTree, root bool) error {
		ax, err := t.c.Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs().SetFrameID(ft.Frame.ID))
		switch {
		case err != nil && root:
			return err
		case err == nil:
			f := outline.Frame{Nodes: ax.Nodes}
			if !root {
				owner, oerr := t.c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(ft.Frame.ID))
				if oerr == nil {
					f.Owner = owner.BackendNodeID
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
	pw, err := passwordFields(ctx, t)
	if err != nil {
		return nil, err
	}
	for i := range frames {
		frames[i].Passwords = pw
	}
	return frames, nil
}

// passwordFields finds every password input of the tab's document and its same-process
// frames with one DOM search.
func passwordFields(ctx context.Context, t *tab) ([]dom.BackendNodeID, error) {
	if _, err := t.c.DOM.GetDocument(ctx, dom.NewGetDocumentArgs().SetDepth(0)); err != nil {
		return nil, err
	}
	s, err := t.c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs(`input[type="password" i]`))
	if err != nil {
		return nil, err
	}
	defer func() { _ = t.c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID)) }()
	if s.ResultCount == 0 {
		return nil, nil
	}
	res, err := t.c.DOM.GetSearchResults(ctx, dom.NewGetSearchResultsArgs(s.SearchID, 0, s.ResultCount))
	if err != nil {
		return nil, err
	}
	out := make([]dom.BackendNodeID, 0, len(res.NodeIDs))
	for _, id := range res.NodeIDs {
		d, err := t.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(id))
		if err != nil {
			return nil, err
		}
		out = append(out, d.Node.BackendNodeID)
	}
	return out, nil
}
