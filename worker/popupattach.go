package worker

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"
)

// pageHold is the browser-level auto-attach that holds new pages at their start.
type pageHold struct {
	on   bool // holdPage, not discover, attaches the context's new pages; under w.mu
	conn *rpcc.Conn
	c    *cdp.Client
}

// holdNewPages makes Chromium pause every new page of the browser at its start (a
// browser-level auto-attach that waits for the debugger) until this worker has looked at
// it. A page of this worker's browser context — a popup, with or without an opener — is
// attached with interception on before it is released, so its first request is classified
// like any other; discover alone attaches a page only once Chromium announces it, after that
// request may have left. A page of another context (other workers share the browser in
// `run`, and an attached browser has pages of its own) is let go at once.
//
// Auto-attach filters by target type, not by context, so every new page of the browser
// waits for each worker's answer; the answer for a foreign page is immediate (letForeignGo).
// Chromium accepts a browser-level auto-attach only in flat mode. It runs in a browser
// session of its own on the worker's browser socket (Target.attachToBrowserTarget), so its
// attach events are told apart from those of the worker's own attaches, which the root
// session hears. If any of this fails the worker does not start: without it a popup's first
// request could leave unclassified.
func (w *Worker) holdNewPages(setup, life context.Context) error {
	r, err := w.bc.Target.AttachToBrowserTarget(setup)
	if err != nil {
		return err
	}
	s, c, err := w.mux.open(life, r.SessionID)
	if err != nil {
		return err
	}
	attached, err := c.Target.AttachedToTarget(life)
	if err != nil {
		return err
	}
	// discover leaves the context's new pages alone from here on: no page can be new before
	// the auto-attach below holds it, since the worker's only tab exists already.
	w.mu.Lock()
	w.pages = pageHold{on: true, conn: s.conn, c: c}
	w.mu.Unlock()
	page := "page"
	if err := c.Target.SetAutoAttach(setup, target.NewSetAutoAttachArgs(true, true).SetFlatten(true).SetFilter(target.Filter{{Type: &page}})); err != nil {
		attached.Close()
		return err
	}
	drain(attached, func(ev *target.AttachedToTargetReply) { go w.holdPage(ev) })
	return nil
}

// holdPage attaches a new page of this worker's context (interception, child auto-attach,
// guards) before letting it run; any other page is let go at once. A page of this context
// that cannot be attached is closed rather than left to run unintercepted.
func (w *Worker) holdPage(ev *target.AttachedToTargetReply) {
	in := ev.TargetInfo
	defer w.detachHeld(ev.SessionID)
	if in.BrowserContextID == nil || *in.BrowserContextID != w.contextID || w.knownTab(in.TargetID) {
		// Another session's page (or our own first tab): its guards are its own worker's
		// business.
		w.letForeignGo(ev)
		return
	}
	if !ev.WaitingForDebugger {
		// Chromium attached it after it started: its first request may have gone before
		// interception (only the egress proxy, where there is one, held it).
		w.log.Printf("new page %s was already running when attached", in.TargetID)
	}
	ctx, cancel := w.callContext()
	defer cancel()
	// attachOrClose bounds the whole attach (a dialog the opener raised in the held page
	// stalls its calls) and closes a page it cannot attach. Nothing of such a page reached
	// the network: it was held until its interception was on, or closed.
	_, err := w.attachOrClose(ctx, in.TargetID, func() { w.resumeHeld(ev.SessionID, ev.WaitingForDebugger) })
	if err != nil {
		w.log.Printf("attach to new page, closed it: %v", err)
		return
	}
	if in.OpenerID != nil {
		w.mu.Lock()
		w.notePopup(*in.OpenerID, in.TargetID)
		w.mu.Unlock()
	}
}

// letForeignGo gives up this worker's hold on a page that is not its own without running
// the page for its owner, which may not have its interception on yet. Chromium holds a new
// page one of two ways, and they let go differently:
//   - a window a page's script opened with access to its opener (window.open, a rel=opener
//     link: canAccessOpener) waits in its renderer, once for all holders, and the first
//     Runtime.runIfWaitingForDebugger from any of them runs it. So it is only detached (by
//     holdPage), which drops this session and leaves the page to its owner's resume. A
//     worker that resumed its neighbour's popup let the popup's first request leave before
//     the neighbour's interception was on (4 sessions in one browser: the canary saw a
//     request within a few rounds; TestPopupsHeldAmongNeighbours).
//   - a page the browser made (a noopener popup, a new tab) has its first navigation
//     deferred by one throttle per holder, which only that holder's resume clears; a detach
//     leaves its throttle in place and the navigation never starts. So it is resumed, which
//     clears this session's throttle alone, and then detached.
func (w *Worker) letForeignGo(ev *target.AttachedToTargetReply) {
	if !ev.WaitingForDebugger || ev.TargetInfo.CanAccessOpener {
		return
	}
	ctx, cancel := w.callContext()
	defer cancel()
	w.runHeld(ctx, ev.SessionID)
}

func (w *Worker) knownTab(id target.ID) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.tabs[id]
	return ok || id == w.first
}

// resumeHeld guards a held page of this worker's context and lets it run. Until it runs, a
// page with no renderer of its own yet (a noopener or cross-site popup) answers nothing its
// renderer handles: the guards attach sends on the page's own connection would arrive only
// after the page has started. So the guards go first through the hold's session, in order
// before the resume on that same session, and reach the page's first document (Page.enable
// first: without it a session's scripts run in no new document); attach adds them again on
// its own connection, which lasts. Only then is the hold's session detached (detachHeld),
// which drops its copy.
func (w *Worker) resumeHeld(id target.SessionID, waiting bool) {
	if !waiting {
		return
	}
	ctx, cancel := w.callContext()
	defer cancel()
	if js := w.documentGuards(); js != "" {
		if !w.sendHeld(ctx, id, "Page.enable", nil) ||
			!w.sendHeld(ctx, id, "Page.addScriptToEvaluateOnNewDocument", page.NewAddScriptToEvaluateOnNewDocumentArgs(js).SetRunImmediately(true)) {
			return // never resumed: attach fails on its later steps and the page is closed
		}
	}
	w.runHeld(ctx, id)
}

// runHeld sends Runtime.runIfWaitingForDebugger into a held page's session.
func (w *Worker) runHeld(ctx context.Context, id target.SessionID) {
	if err := rpcc.Invoke(ctx, "Runtime.runIfWaitingForDebugger", sessionCall{id: id}, nil, w.pages.conn); err != nil {
		w.log.Printf("resume held page: %v", err)
	}
}

// sendHeld sends a command into a held page's session and returns once it is written, not
// answered: the page answers it only once it runs. It reports false if ctx ended first.
func (w *Worker) sendHeld(ctx context.Context, id target.SessionID, method string, params any) bool {
	sent := make(chan struct{})
	go func() {
		ctx, cancel := w.callContext()
		defer cancel()
		if err := rpcc.Invoke(ctx, method, sessionCall{id: id, params: params, sent: sent}, nil, w.pages.conn); err != nil {
			w.log.Printf("held page: %s: %v", method, err)
		}
	}()
	select {
	case <-sent:
		return true
	case <-ctx.Done():
		return false
	}
}

// detachHeld ends the hold's session on a page; the page's own connection (attach) stays.
func (w *Worker) detachHeld(id target.SessionID) {
	ctx, cancel := w.callContext()
	defer cancel()
	if err := w.pages.c.Target.DetachFromTarget(ctx, target.NewDetachFromTargetArgs().SetSessionID(id)); err != nil {
		w.log.Printf("detach from held page: %v", err)
	}
}

// holdsNewPages reports whether holdPage, not discover, attaches the context's new pages.
func (w *Worker) holdsNewPages() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pages.on
}

// sessionCall, as the args of a call on the hold's connection, sends the method with params
// to that flat session instead of the hold's own, and closes sent (if any) once it is
// written (cdpMux.write). The answer comes back to the hold's connection; the held page's
// events are dropped (the hold enables nothing in the pages it holds, and they must not pass
// for anyone's events).
type sessionCall struct {
	id     target.SessionID
	params any
	sent   chan struct{}
}
