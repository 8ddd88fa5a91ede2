package worker

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/emulation"
)

// emulateFocus makes a tab behave as the focused, visible page whatever window is in front,
// as Playwright does for every page. A headless popup opens a window of its own, which
// takes the focus and hides its opener: the opener then draws no frames, and Chromium holds
// the next mouse event sent to it until its input acknowledgement times out (5 s a click,
// seen on the second click of an opener whose first one opened a popup), while the page
// reads document.visibilityState "hidden" and skips its requestAnimationFrame work.
func emulateFocus(ctx context.Context, c *cdp.Client) error {
	return c.Emulation.SetFocusEmulationEnabled(ctx, emulation.NewSetFocusEmulationEnabledArgs(true))
}
