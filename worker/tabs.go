package worker

import (
	"context"
	"sort"

	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handles((*Worker).listTabs)

// listTabs lists tabs in creation order, leaving out tabs whose origin the effective policy
// does not allow (about:blank and other origin-less tabs are listed). It never changes the
// selection.
func (w *Worker) listTabs(ctx context.Context, r *transport.ListTabs, pol policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.CDPCall().Default)
	defer cancel()
	infos, err := w.bc.Target.GetTargets(ctx, target.NewGetTargetsArgs())
	if err != nil {
		return nil, w.cdpFailure(transport.OpListTabs, transport.NotAttempted, err)
	}
	titles := map[target.ID]string{}
	urls := map[target.ID]string{}
	for _, in := range infos.TargetInfos {
		titles[in.TargetID], urls[in.TargetID] = in.Title, in.URL
	}
	w.mu.Lock()
	ordered := make([]*tab, 0, len(w.tabs))
	for _, t := range w.tabs {
		ordered = append(ordered, t)
	}
	selected := w.selected
	w.mu.Unlock()
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].seq < ordered[j].seq })

	res := &transport.ListTabsResult{Tabs: []transport.TabInfo{}, Selected: string(selected)}
	for _, t := range ordered {
		u, ok := urls[t.id]
		if !ok {
			continue // closed since we last heard
		}
		if o := policy.OriginOf(u); o != "" && !pol.AllowsOrigin(o) {
			continue
		}
		if len(res.Tabs) == budgets.ListTabsMax {
			break
		}
		res.Tabs = append(res.Tabs, transport.TabInfo{Tab: string(t.id), URL: u, Title: titles[t.id], Selected: t.id == selected})
	}
	if r.Select == nil {
		return res, nil
	}
	pick, err := selectOne(r.Select, res.Tabs)
	if err != nil {
		return nil, err
	}
	res.Tabs = []transport.TabInfo{pick}
	return res, nil
}

func selectOne(sel *transport.TabSelect, tabs []transport.TabInfo) (transport.TabInfo, error) {
	notFound := func(msg string) error {
		return transport.NewError(transport.OpListTabs, transport.PhaseExecute, transport.CodeTabNotFound, transport.RetrySafe, transport.NotAttempted, "%s", msg).WithPath("request.select")
	}
	if sel.Kind == "index" {
		if *sel.Index >= len(tabs) {
			return transport.TabInfo{}, notFound("no listed tab at that index")
		}
		return tabs[*sel.Index], nil
	}
	want, err := policy.NormalizeOrigin(sel.Origin)
	if err != nil {
		return transport.TabInfo{}, transport.Invalid(transport.OpListTabs, "request.select.origin", "%s", err.Error())
	}
	var found []transport.TabInfo
	for _, t := range tabs {
		if policy.OriginOf(t.URL) == want {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return transport.TabInfo{}, notFound("no listed tab has origin " + want)
	case 1:
		return found[0], nil
	}
	return transport.TabInfo{}, transport.NewError(transport.OpListTabs, transport.PhaseExecute, transport.CodeElementAmbiguous, transport.RetryNever, transport.NotAttempted,
		"%d listed tabs have origin %s; select by index", len(found), want).WithPath("request.select")
}

var _ = handlesTab((*Worker).selectTab)

// selectTab makes a tab the selected one and brings it to the front (a background tab can
// stall screenshots in headless mode).
func (w *Worker) selectTab(ctx context.Context, t *tab, r *transport.SelectTab, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.CDPCall().Default)
	defer cancel()
	if err := w.bc.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(t.id)); err != nil {
		return nil, w.cdpFailure(transport.OpSelectTab, transport.NotAttempted, err)
	}
	w.mu.Lock()
	w.selected = t.id
	w.mu.Unlock()
	var info pageText
	if err := w.evaluate(ctx, t, documentInfoScript, &info); err != nil {
		return nil, w.cdpFailure(transport.OpSelectTab, transport.Verified, err)
	}
	return &transport.SelectTabResult{SelectedTab: string(t.id), URL: info.URL, Title: info.Title}, nil
}

var _ = handlesTab((*Worker).closeTab)

// closeTab closes a tab. When it was selected, no tab is selected afterwards.
func (w *Worker) closeTab(ctx context.Context, t *tab, r *transport.CloseTab, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.CDPCall().Default)
	defer cancel()
	if _, err := w.bc.Target.CloseTarget(ctx, target.NewCloseTargetArgs(t.id)); err != nil {
		return nil, w.cdpFailure(transport.OpCloseTab, transport.Unknown, err)
	}
	w.forgetTab(t.id)
	w.mu.Lock()
	selected := w.selected
	w.mu.Unlock()
	return &transport.CloseTabResult{Closed: string(t.id), Selected: string(selected)}, nil
}

// forgetTab drops a tab that closed (by us or by the page).
func (w *Worker) forgetTab(id target.ID) {
	w.mu.Lock()
	t, ok := w.tabs[id]
	delete(w.tabs, id)
	if w.selected == id {
		w.selected = ""
	}
	w.mu.Unlock()
	if ok {
		t.close()
	}
}

// discover tracks page targets the page opens in our context (window.open, target=_blank)
// and targets that go away, so listTabs sees them. Events are always drained.
func (w *Worker) discover(ctx context.Context) error {
	created, err := w.bc.Target.TargetCreated(ctx)
	if err != nil {
		return err
	}
	destroyed, err := w.bc.Target.TargetDestroyed(ctx)
	if err != nil {
		return err
	}
	if err := w.bc.Target.SetDiscoverTargets(ctx, target.NewSetDiscoverTargetsArgs(true)); err != nil {
		return err
	}
	drain(created, func(ev *target.CreatedReply) {
		in := ev.TargetInfo
		if in.Type != "page" || in.BrowserContextID == nil || *in.BrowserContextID != w.contextID || w.holdsNewPages() {
			return // holdPage attaches the context's new pages while it holds them
		}
		if w.knownTab(in.TargetID) {
			return
		}
		actx, cancel := w.callContext()
		defer cancel()
		if _, err := w.attachOrClose(actx, in.TargetID, nil); err != nil {
			w.log.Printf("attach to new tab: %v", err)
		} else if in.OpenerID != nil {
			w.mu.Lock()
			w.notePopup(*in.OpenerID, in.TargetID)
			w.mu.Unlock()
		}
	})
	drain(destroyed, func(ev *target.DestroyedReply) { w.forgetTab(ev.TargetID) })
	return nil
}
