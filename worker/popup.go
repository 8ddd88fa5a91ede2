package worker

import (
	"context"
	"errors"

	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// popupQueue holds popups the page opened that no waitPopup has claimed yet, per opener, so
// a popup opened before the wait is not lost.
type popupQueue struct {
	unclaimed map[target.ID][]target.ID // opener → popups, oldest first
	changed   chan struct{}
}

// notePopup records a new tab that has an opener. Call with w.mu held.
func (w *Worker) notePopup(opener, popup target.ID) {
	if w.popups.unclaimed == nil {
		w.popups.unclaimed = map[target.ID][]target.ID{}
	}
	w.log.Printf("popup %s opened by %s", popup, opener)
	w.popups.unclaimed[opener] = append(w.popups.unclaimed[opener], popup)
	if w.popups.changed != nil {
		close(w.popups.changed)
	}
	w.popups.changed = make(chan struct{})
}

var _ = handlesTab((*Worker).waitPopup)

// waitPopup returns the oldest unclaimed popup of the opener, waiting within the popup
// budget for one. The selection never changes (autoSwitched is always false).
func (w *Worker) waitPopup(ctx context.Context, opener *tab, r *transport.WaitPopup, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.PopupWait().Default)
	defer cancel()
	for {
		w.mu.Lock()
		if w.popups.changed == nil {
			w.popups.changed = make(chan struct{})
			w.popups.unclaimed = map[target.ID][]target.ID{}
		}
		queue := w.popups.unclaimed[opener.id]
		var popup *tab
		for len(queue) > 0 && popup == nil {
			popup = w.tabs[queue[0]] // a popup that already closed is skipped
			queue = queue[1:]
		}
		w.popups.unclaimed[opener.id] = queue
		changed := w.popups.changed
		w.mu.Unlock()
		if popup != nil {
			popup.mu.Lock()
			u := popup.url
			popup.mu.Unlock()
			return &transport.WaitPopupResult{Popup: string(popup.id), Opener: string(opener.id), URL: u}, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, transport.NewError(transport.OpWaitPopup, transport.PhaseExecute, transport.CodeTimeout, transport.RetrySafe, transport.NotAttempted,
					"no popup opened within the popup budget (%s)", budgets.PopupWait().Default)
			}
			return nil, w.cdpFailure(transport.OpWaitPopup, transport.NotAttempted, ctx.Err())
		}
	}
}
