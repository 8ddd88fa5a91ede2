package worker

import (
	"context"
	_ "embed"
	"strconv"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

//go:embed axplan.js
var axPlanFn string

// fullTreeElements is the largest document (elements in a session's frames) whose whole
// accessibility tree is fetched at once. Past it the reply alone (tens of MB for 50 000
// elements) and its decoding would take the worker past its memory ceiling and the
// observation budget, so the tree is read in bounded windows instead (boundedFrame).
// Variables so an in-package test can make a small page take the bounded path.
var (
	fullTreeElements = budgets.OutlineFullTreeElements
	windowElements   = budgets.OutlineWindowElements
)

// planObjects is the object group the plan's element handles live in, released after use.
const planObjects = "fastbrowser-axplan"

// countElements counts the elements of a session's document and its same-process frames
// with one DOM search (after requestDocument): Chromium answers with the count alone.
func countElements(ctx context.Context, c *cdp.Client) (int, error) {
	s, err := c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs("*"))
	if err != nil {
		return 0, err
	}
	_ = c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID))
	return s.ResultCount, nil
}

// boundedFrame reads a huge document's accessibility tree in windows that axplan.js chose:
// each shell alone (Accessibility.getPartialAXTree), each root with its subtree
// (Accessibility.queryAXTree), at most budgets.OutlineWindowElements elements in at most
// budgets.OutlineWindowRoots calls. The frame is marked partial when the plan left elements
// out; same-process child frames are left out too.
func (w *Worker) boundedFrame(ctx context.Context, t *tab, session string, c *cdp.Client) (outline.Frame, error) {
	f := outline.Frame{Session: session, Partial: true}
	world, err := t.worldIn(ctx, session)
	if err != nil {
		return f, err
	}
	defer func() {
		// The element handles are released even when the budget ran out, without making
		// the operation wait for a renderer still busy with the reads it gave up on.
		go func() {
			rctx, cancel := w.callContext()
			defer cancel()
			_ = c.Runtime.ReleaseObjectGroup(rctx, cdpruntime.NewReleaseObjectGroupArgs(planObjects))
		}()
	}()
	plan, err := c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(axPlanFn).SetExecutionContextID(world).
		SetArguments([]cdpruntime.CallArgument{{Value: mustJSON(windowElements)}, {Value: mustJSON(budgets.OutlineWindowRoots)}}).
		SetObjectGroup(planObjects).SetSilent(true))
	if err != nil {
		return f, err
	}
	if plan.ExceptionDetails != nil || plan.Result.ObjectID == nil {
		return f, errScript
	}
	parts, err := arrayItems(ctx, c, *plan.Result.ObjectID)
	if err != nil || len(parts) != 3 || parts[0].ObjectID == nil || parts[1].ObjectID == nil {
		return f, errScript
	}
	shells, err := arrayItems(ctx, c, *parts[0].ObjectID)
	if err != nil {
		return f, err
	}
	roots, err := arrayItems(ctx, c, *parts[1].ObjectID)
	if err != nil {
		return f, err
	}
	seen := map[accessibility.AXNodeID]bool{}
	add := func(nodes []accessibility.AXNode) {
		for _, n := range nodes {
			if !seen[n.NodeID] {
				seen[n.NodeID] = true
				f.Nodes = append(f.Nodes, n)
			}
		}
	}
	for _, s := range shells {
		if s.ObjectID == nil {
			continue
		}
		r, err := c.Accessibility.GetPartialAXTree(ctx, accessibility.NewGetPartialAXTreeArgs().SetObjectID(*s.ObjectID).SetFetchRelatives(false))
		if err != nil {
			return f, err
		}
		add(r.Nodes)
	}
	for _, r := range roots {
		if r.ObjectID == nil {
			continue
		}
		q, err := c.Accessibility.QueryAXTree(ctx, accessibility.NewQueryAXTreeArgs().SetObjectID(*r.ObjectID))
		if err != nil {
			if ctx.Err() != nil {
				break // out of budget: what was read is the outline, truncated
			}
			return f, err
		}
		add(q.Nodes)
	}
	return f, nil
}

// arrayItems returns the elements of a JavaScript array, in order.
func arrayItems(ctx context.Context, c *cdp.Client, array cdpruntime.RemoteObjectID) ([]cdpruntime.RemoteObject, error) {
	props, err := c.Runtime.GetProperties(ctx, cdpruntime.NewGetPropertiesArgs(array).SetOwnProperties(true))
	if err != nil {
		return nil, err
	}
	var items []cdpruntime.RemoteObject
	for _, p := range props.Result {
		i, err := strconv.Atoi(p.Name)
		if err != nil || p.Value == nil {
			continue // "length" and the like
		}
		for len(items) <= i {
			items = append(items, cdpruntime.RemoteObject{})
		}
		items[i] = *p.Value
	}
	return items, nil
}
