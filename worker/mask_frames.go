package worker

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
)

// collectDocuments runs mask_collect.js in every frame of every session of the tab, side by
// side, and answers which frames it reached.
func (m *masking) collectDocuments(ctx context.Context, sessions []maskSession, secrets []string) map[page.FrameID]bool {
	type frame struct {
		s    maskSession
		id   page.FrameID
		root bool
		base point
	}
	var mu sync.Mutex
	var frames []frame
	reached := map[page.FrameID]bool{}
	for _, s := range sessions[1:] {
		reached[page.FrameID(s.id)] = true
	}
	sideBySide(len(sessions), func(i int) {
		s := sessions[i]
		tree, err := s.c.Page.GetFrameTree(ctx)
		if err != nil {
			m.fail()
			return
		}
		base, err := m.offset(ctx, s.id)
		if err != nil {
			m.fail()
			return
		}
		mu.Lock()
		defer mu.Unlock()
		var walk func(ft page.FrameTree, root bool)
		walk = func(ft page.FrameTree, root bool) {
			reached[ft.Frame.ID] = true
			frames = append(frames, frame{s, ft.Frame.ID, root, base})
			for _, child := range ft.ChildFrames {
				walk(child, false)
			}
		}
		walk(tree.FrameTree, true)
	})
	sideBySide(len(frames), func(i int) {
		f := frames[i]
		m.collectFrame(ctx, f.s.id, f.s.c, f.id, f.root, f.base, secrets)
	})
	return reached
}

// collectFrame adds one frame's password fields, secret-holding fields and echoed secret
// text, moved from the frame's viewport into the tab's.
func (m *masking) collectFrame(ctx context.Context, session string, c *cdp.Client, frame page.FrameID, root bool, base point, secrets []string) {
	var world cdpruntime.ExecutionContextID
	off := base
	var err error
	if root {
		world, err = m.t.worldIn(ctx, session)
	} else {
		var owner *dom.GetFrameOwnerReply
		if owner, err = c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(frame)); err == nil {
			var box *dom.GetBoxModelReply
			if box, err = c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner.BackendNodeID)); err != nil {
				// A frame whose <iframe> has no box (display:none) shows nothing.
				return
			}
			// A same-process frame's boxes are in its session's viewport already; its
			// own script's rects are in its own viewport, which starts at the content box.
			off = point{box.Model.Content[0], box.Model.Content[1]}
			var w *page.CreateIsolatedWorldReply
			if w, err = c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(frame).SetWorldName(worldName)); err == nil {
				world = w.ExecutionContextID
			}
		}
	}
	if err != nil {
		m.fail()
		return
	}
	reply, err := c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(maskCollectFn).SetExecutionContextID(world).
		SetArguments([]cdpruntime.CallArgument{{Value: mustJSON(secrets)}}).SetReturnByValue(true).SetSilent(true))
	if err != nil && root && staleContext(err) {
		m.t.forgetWorldIn(session)
	}
	if err != nil || reply.ExceptionDetails != nil {
		m.fail()
		return
	}
	var found struct {
		Items     [][]rect `json:"items"`
		Truncated bool     `json:"truncated"`
	}
	if err := json.Unmarshal(reply.Result.Value, &found); err != nil || found.Truncated {
		m.fail()
		return
	}
	for _, rs := range found.Items {
		if len(rs) == 0 {
			continue // no box: nothing of it shows
		}
		for i := range rs {
			rs[i][0] += off.x
			rs[i][1] += off.y
		}
		m.add(rs)
	}
}

// countUnreached counts the frame owners (found by scanSession) that hold a frame no session
// reached and have a box on the page: something shows there that nothing inspected, so the
// proof cannot hold.
func (m *masking) countUnreached(ctx context.Context, owners []frameOwner, reached map[page.FrameID]bool) {
	var unreached []frameOwner
	for _, o := range owners {
		if !reached[o.frame] {
			unreached = append(unreached, o)
		}
	}
	sideBySide(len(unreached), func(i int) {
		o := unreached[i]
		if box, err := o.c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(o.backend)); err == nil && box.Model.Width > 0 && box.Model.Height > 0 {
			m.mu.Lock()
			m.uninspected++
			m.mu.Unlock()
		}
	})
}
