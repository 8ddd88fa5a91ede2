package worker

import (
	"context"
	"fmt"

	"github.com/mafredri/cdp/protocol/target"
)

// firstTab makes the worker's browser context and its first tab. A context of its own is
// created disposeOnDetach (if this worker dies, Chromium disposes the context with it) and
// behind the egress proxy; the default context's id is learnt from the tab opened in it.
func (w *Worker) firstTab(ctx context.Context) (*target.CreateTargetReply, error) {
	if w.defaultContext {
		created, err := w.bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank"))
		if err != nil {
			return nil, fmt.Errorf("cannot create the first tab: %w", err)
		}
		info, err := w.bc.Target.GetTargetInfo(ctx, target.NewGetTargetInfoArgs().SetTargetID(created.TargetID))
		if err != nil {
			return nil, fmt.Errorf("cannot read the first tab's browser context: %w", err)
		}
		if info.TargetInfo.BrowserContextID == nil {
			return nil, fmt.Errorf("the browser does not name its default context")
		}
		w.contextID = *info.TargetInfo.BrowserContextID
		return created, nil
	}
	cargs := target.NewCreateBrowserContextArgs().SetDisposeOnDetach(true)
	if w.proxyServer != "" {
		// Everything the context sends goes through the runtime's egress proxy; loopback
		// too ("<-loopback>"), which Chromium would otherwise send direct.
		cargs.SetProxyServer(w.proxyServer).SetProxyBypassList("<-loopback>")
	}
	bctx, err := w.bc.Target.CreateBrowserContext(ctx, cargs)
	if err != nil {
		return nil, fmt.Errorf("cannot create a browser context: %w", err)
	}
	w.contextID = bctx.BrowserContextID
	created, err := w.bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(w.contextID))
	if err != nil {
		return nil, fmt.Errorf("cannot create the first tab: %w", err)
	}
	return created, nil
}
