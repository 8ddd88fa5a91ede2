package worker

import (
	"context"
	"errors"
	"sort"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
)

// oopif is an out-of-process frame of a tab: a cross-site <iframe> that Chromium renders in
// a process of its own, reached through the child session children.go opened when it
// attached. Its backend node ids, execution contexts and coordinates are its own: a node in
// it is named by (session, backend id) (outline.NodeKey), and a point in it is moved into the
// tab's viewport by the offsets of the <iframe>s above it.
type oopif struct {
	id     string      // its target id, which is also its frame id and its session name
	parent string      // the session its <iframe> is in: "" for the tab's own
	c      *cdp.Client // the child session
	seq    int         // attach order: frames are read in a stable order

	mu    sync.Mutex
	world cdpruntime.ExecutionContextID // isolated world of its main frame; 0 until made
}

// errFrameGone: the out-of-process frame detached (it navigated away or was removed).
var errFrameGone = errors.New("frame is gone")

// addFrame registers an out-of-process frame once its interception is on.
func (t *tab) addFrame(f *oopif) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.frames == nil {
		t.frames = map[string]*oopif{}
	}
	t.frameSeq++
	f.seq = t.frameSeq
	t.frames[f.id] = f
}

// dropFrame forgets a detached frame, unless a new session of the same frame (it moved to
// another process) has replaced it already.
func (t *tab) dropFrame(f *oopif) {
	t.mu.Lock()
	if t.frames[f.id] == f {
		delete(t.frames, f.id)
	}
	t.mu.Unlock()
}

// oopifs lists the tab's out-of-process frames in attach order (a parent before its
// children, since a child attaches through its parent).
func (t *tab) oopifs() []*oopif {
	t.mu.Lock()
	out := make([]*oopif, 0, len(t.frames))
	for _, f := range t.frames {
		out = append(out, f)
	}
	t.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// client is the CDP client of a session: the tab's own for "", else the frame's.
func (t *tab) client(session string) (*cdp.Client, error) {
	if session == "" {
		return t.c, nil
	}
	f, err := t.frame(session)
	if err != nil {
		return nil, err
	}
	return f.c, nil
}

// frame is an out-of-process frame of the tab by its session name.
func (t *tab) frame(session string) (*oopif, error) {
	t.mu.Lock()
	f := t.frames[session]
	t.mu.Unlock()
	if f == nil {
		return nil, errFrameGone
	}
	return f, nil
}

// worldIn returns our isolated world in a session's main frame, made on first use.
func (t *tab) worldIn(ctx context.Context, session string) (cdpruntime.ExecutionContextID, error) {
	if session == "" {
		return t.isolatedWorld(ctx)
	}
	f, err := t.frame(session)
	if err != nil {
		return 0, err
	}
	f.mu.Lock()
	world := f.world
	f.mu.Unlock()
	if world != 0 {
		return world, nil
	}
	reply, err := f.c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(page.FrameID(f.id)).SetWorldName(worldName))
	if err != nil {
		return 0, err
	}
	f.mu.Lock()
	f.world = reply.ExecutionContextID
	f.mu.Unlock()
	return reply.ExecutionContextID, nil
}

// forgetWorldIn drops a session's cached world after Chromium said it no longer exists
// (its document was replaced).
func (t *tab) forgetWorldIn(session string) {
	if session == "" {
		t.forgetWorld()
		return
	}
	if f, err := t.frame(session); err == nil {
		f.mu.Lock()
		f.world = 0
		f.mu.Unlock()
	}
}

// point is a position in some session's viewport, in CSS pixels.
type point struct{ x, y float64 }

// offset is where a session's viewport starts in the tab's viewport: the content-box corner
// of its <iframe> in the parent's viewport, plus the parent's own offset. A same-process
// frame needs none: Chromium gives its boxes in its session's viewport already.
func (t *tab) offset(ctx context.Context, session string) (point, error) {
	var off point
	for depth := 0; session != ""; depth++ {
		if depth > budgets.FrameDepth {
			return point{}, errFrameGone
		}
		f, err := t.frame(session)
		if err != nil {
			return point{}, err
		}
		origin, err := t.ownerOrigin(ctx, f)
		if err != nil {
			return point{}, err
		}
		off.x += origin.x
		off.y += origin.y
		session = f.parent
	}
	return off, nil
}

// ownerOrigin is the content-box corner of the frame's <iframe>, in its parent session's
// viewport.
func (t *tab) ownerOrigin(ctx context.Context, f *oopif) (point, error) {
	owner, err := t.owner(ctx, f)
	if err != nil {
		return point{}, err
	}
	pc, err := t.client(f.parent)
	if err != nil {
		return point{}, err
	}
	box, err := pc.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner))
	if err != nil {
		return point{}, err
	}
	if len(box.Model.Content) < 2 {
		return point{}, errFrameGone
	}
	return point{box.Model.Content[0], box.Model.Content[1]}, nil
}

// owner is the frame's <iframe> element in its parent session.
func (t *tab) owner(ctx context.Context, f *oopif) (dom.BackendNodeID, error) {
	pc, err := t.client(f.parent)
	if err != nil {
		return 0, err
	}
	o, err := pc.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(page.FrameID(f.id)))
	if err != nil {
		return 0, err
	}
	return o.BackendNodeID, nil
}
