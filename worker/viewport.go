package worker

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

// applyViewport lays a tab's pages out at the session's viewport (a scenario's "viewport"):
// every tab the worker attaches, popups included, before the worker lets it run on.
func (w *Worker) applyViewport(ctx context.Context, c *cdp.Client) error {
	if w.viewport.IsZero() {
		return nil
	}
	return c.Emulation.SetDeviceMetricsOverride(ctx, emulation.NewSetDeviceMetricsOverrideArgs(w.viewport.Width, w.viewport.Height, 1, false))
}
