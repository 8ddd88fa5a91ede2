package worker

import (
	"context"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// attachChildren auto-attaches to every target a tab (or an attached frame) starts: its
// out-of-process iframes and dedicated workers. Chromium pauses each one before it runs or
// loads anything; interception is switched on before it is resumed, so its first request is
// classified like the tab's own. Nested children are attached the same way.
//
// Sessions are flat, on the tab's socket (cdpMux): each child gets a connection of its own
// there. The auto-attach is the page's, not the browser's: it keeps each worker's
// attachments inside its own tabs, where a browser-level one would also pause the targets of
// other workers sharing the browser.
//
// An out-of-process frame's session stays open while it is attached: the tab keeps it
// (frames.go) so observe, act and masking reach into the frame. session names the parent:
// "" for the tab itself, else the parent frame's target id.
func (w *Worker) attachChildren(ctx context.Context, t *tab, session string, parent *cdp.Client) error {
	attached, err := parent.Target.AttachedToTarget(ctx)
	if err != nil {
		return err
	}
	drain(attached, func(ev *target.AttachedToTargetReply) { go w.adopt(ctx, t, session, ev) })
	// Frames and dedicated workers only, as a nested auto-attach gave: in flat mode Chromium
	// would attach service workers too, whose traffic the egress proxy alone holds
	// (docs/protocol.md "Egress"), and a service worker paused for us stalls registration.
	iframe, worker := "iframe", "worker"
	return parent.Target.SetAutoAttach(ctx, target.NewSetAutoAttachArgs(true, true).SetFlatten(true).
		SetFilter(target.Filter{{Type: &iframe}, {Type: &worker}}))
}

// adopt intercepts one paused child target and resumes it. A child whose interception
// cannot be switched on stays paused: it never runs, so it never sends a request the policy
// did not see. Its session ends when Chromium detaches it or when the parent's ctx ends.
func (w *Worker) adopt(ctx context.Context, t *tab, session string, ev *target.AttachedToTargetReply) {
	s, c, err := t.mux.open(ctx, ev.SessionID)
	if err != nil {
		w.log.Printf("attach to %s target: %v", ev.TargetInfo.Type, err)
		return
	}
	life := s.conn.Context()
	// A dedicated worker has no Fetch domain; its requests pass through its owner's
	// interception (TestEgressNarrowedInChildTargets/worker), so it is only resumed.
	if ev.TargetInfo.Type != "worker" {
		if err := w.intercept(life, c); err != nil {
			w.log.Printf("intercept %s target, left paused: %v", ev.TargetInfo.Type, err)
			w.egress.refuse(ev.TargetInfo.Type, originOrScheme(ev.TargetInfo.URL))
			return
		}
	}
	call, cancel := context.WithTimeout(life, budgets.CDPCall().Default)
	defer cancel()
	if err := w.watchWebSockets(call, life, c); err != nil {
		w.log.Printf("watch WebSockets of %s target: %v", ev.TargetInfo.Type, err)
	}
	if ev.TargetInfo.Type == "iframe" {
		// An out-of-process frame is a document of its own: it gets the document guards
		// and auto-attach for its own frames and workers.
		if err := w.guardDocuments(call, c); err != nil {
			w.log.Printf("guard documents in frame: %v", err)
		}
		f := &oopif{id: string(ev.TargetInfo.TargetID), parent: session, c: c}
		t.addFrame(f)
		context.AfterFunc(life, func() { t.dropFrame(f) })
		if err := w.attachChildren(life, t, f.id, c); err != nil {
			w.log.Printf("auto-attach under frame: %v", err)
		}
	}
	if !ev.WaitingForDebugger {
		return
	}
	if err := c.Runtime.RunIfWaitingForDebugger(call); err != nil {
		w.log.Printf("resume %s target: %v", ev.TargetInfo.Type, err)
	}
}
