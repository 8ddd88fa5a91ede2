package worker

import (
	"context"
	"errors"

	"github.com/mafredri/cdp/protocol/target"
)

var errAttachTimeout = errors.New("the tab could not be attached in time; it was closed")

// attachOrClose attaches to a tab the page opened, and closes the tab when that fails or
// does not finish within ctx. A tab the worker does not hold has no interception and no
// dialog answers: a dialog it shows before the worker listens (an opener can call alert()
// on its popup the moment window.open returns) stalls it and its opener, and attaching
// itself hangs (Page.enable gets no answer while the dialog is up). Closing the tab ends the
// dialog and the calls stuck on it.
//
// ready is attachThen's: called once interception is on (a held popup is resumed there).
func (w *Worker) attachOrClose(ctx context.Context, id target.ID, ready func()) (*tab, error) {
	type attached struct {
		t   *tab
		err error
	}
	done := make(chan attached, 1)
	go func() {
		t, err := w.attachThen(ctx, id, ready)
		done <- attached{t, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			w.closeTarget(id)
		}
		return a.t, a.err
	case <-ctx.Done():
	}
	w.closeTarget(id)
	// The target is gone, so attach's calls end (if attach won the race, the tab's destroyed
	// event forgets it); wait for that, within a budget.
	wait, cancel := w.callContext()
	defer cancel()
	select {
	case <-done:
	case <-wait.Done():
		w.log.Printf("attach to a closed tab did not end")
	}
	return nil, errAttachTimeout
}

// closeTarget closes a target through the browser connection, which needs nothing from the
// target's renderer.
func (w *Worker) closeTarget(id target.ID) {
	ctx, cancel := w.callContext()
	defer cancel()
	if _, err := w.bc.Target.CloseTarget(ctx, target.NewCloseTargetArgs(id)); err != nil {
		w.log.Printf("close a tab that could not be attached: %v", err)
	}
}
