package worker

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync/atomic"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// The locator engine: every transport.Target form but ref resolved to the elements it
// names, in document order. A role look reads the accessibility tree of every frame
// (axFrames, out-of-process ones included); the other kinds run locate.js in every
// session the tab has (its own and each out-of-process frame's), which also reads the
// session's same-origin frames. The refinements then keep what is inside a container
// (within), what holds a text (hasText) or an element (has), and nth, first or last picks
// one. Limitations: within and has compare elements of one session (a container in the
// page never holds an element of an out-of-process frame, as Playwright's locators never
// cross a frame either); the kinds other than role list a session's matches before the
// next session's (the tab's own first, then out-of-process frames in the order they
// attached); at most budgets.LocatorMatches elements per locator and session are looked at.

// look is one resolution of a target and the locators nested in it: the accessibility
// frames are read at most once for all of them. Every handle it makes in the page is in an
// object group of its own, released when the look ends (release): an act's element gets a
// handle of its own (locateAny), and a wait that looks every 50 ms leaves nothing behind.
type look struct {
	w      *Worker
	t      *tab
	frames []outline.Frame
	read   bool
	near   *outline.Element // the top-level role look's near miss (outline.Lookup)

	group   string                 // the object group of its handles
	touched map[string]*cdp.Client // the sessions it made handles in
}

// lookSeq numbers looks, for their object groups' names.
var lookSeq atomic.Int64

func newLook(w *Worker, t *tab) *look {
	return &look{w: w, t: t, group: "fastbrowser-locate-" + strconv.FormatInt(lookSeq.Add(1), 10), touched: map[string]*cdp.Client{}}
}

// release drops the look's handles in every session it made them in. Best effort, within
// the look's own context: a session that went away took them with it, and a look its budget
// cut short leaves them to its document.
func (lk *look) release(ctx context.Context) {
	for _, c := range lk.touched {
		_ = c.Runtime.ReleaseObjectGroup(ctx, cdpruntime.NewReleaseObjectGroupArgs(lk.group))
	}
}

// hit is one element a locator matched.
type hit struct {
	el  outline.Element // Session always; Backend, Role and Name once known (a role look knows them at once)
	c   *cdp.Client
	obj cdpruntime.RemoteObjectID // a handle in the session's isolated world; "" until needed
}

func (lk *look) axFrames(ctx context.Context) ([]outline.Frame, error) {
	if !lk.read {
		f, err := lk.w.axFrames(ctx, lk.t)
		if err != nil {
			return nil, err
		}
		lk.frames, lk.read = f, true
	}
	return lk.frames, nil
}

// find resolves tg (not a ref) to its matches; top says it is the target itself, not a
// locator nested in it.
func (lk *look) find(ctx context.Context, tg transport.Target, top bool) ([]*hit, error) {
	var hs []*hit
	var err error
	if tg.Kind() == transport.LocateRole {
		hs, err = lk.byRole(ctx, tg, top)
	} else {
		hs, err = lk.byDOM(ctx, tg)
	}
	if err != nil {
		return nil, err
	}
	if len(hs) > 0 && tg.Within != nil {
		outer, err := lk.find(ctx, *tg.Within, false)
		if err != nil {
			return nil, err
		}
		if hs, err = lk.related(ctx, hs, outer, "within"); err != nil {
			return nil, err
		}
	}
	if len(hs) > 0 && tg.HasText != nil {
		if hs, err = lk.hasText(ctx, hs, tg.HasText); err != nil {
			return nil, err
		}
	}
	if len(hs) > 0 && tg.Has != nil {
		inner, err := lk.find(ctx, *tg.Has, false)
		if err != nil {
			return nil, err
		}
		if hs, err = lk.related(ctx, hs, inner, "has"); err != nil {
			return nil, err
		}
	}
	return pick(hs, tg), nil
}

// pick keeps the match nth, first or last say, or every match when none is given.
func pick(hs []*hit, tg transport.Target) []*hit {
	switch {
	case len(hs) == 0:
		return hs
	case tg.First:
		return hs[:1]
	case tg.Last:
		return hs[len(hs)-1:]
	case tg.Nth != nil:
		i := *tg.Nth
		if i < 0 {
			i += len(hs)
		}
		if i < 0 || i >= len(hs) {
			return nil
		}
		return hs[i : i+1]
	}
	return hs
}

// byRole finds the elements the outline keeps with their DOM node (controls, and
// containers, headings, rows, cells and tables too) whose role and accessible name match.
func (lk *look) byRole(ctx context.Context, tg transport.Target, top bool) ([]*hit, error) {
	frames, err := lk.axFrames(ctx)
	if err != nil {
		return nil, err
	}
	var name func(string) bool
	near := ""
	if tg.Name != nil {
		name = tg.Name.Matcher(tg.IsExact())
		if !tg.Name.IsRegex() {
			near = tg.Name.String
		}
	}
	m := outline.Lookup(frames, tg.Role, name, near, false, lk.w.clipScrubbed)
	if top {
		lk.near = m.Near
	}
	hs := make([]*hit, 0, len(m.Found))
	for _, e := range m.Found {
		if len(hs) == budgets.LocatorMatches {
			break
		}
		c, err := lk.t.client(e.Session)
		if err != nil {
			continue // its frame went away
		}
		hs = append(hs, &hit{el: e, c: c})
	}
	return hs, nil
}

// sessions lists the tab's sessions: its own ("") first, then its out-of-process frames
// in the order they attached.
func (lk *look) sessions() []string {
	out := []string{""}
	for _, f := range lk.t.oopifs() {
		out = append(out, f.id)
	}
	return out
}

// byDOM runs locate.js's find in every session. An out-of-process frame that went away
// while it was read is left out; the tab's own session failing fails the look.
func (lk *look) byDOM(ctx context.Context, tg transport.Target) ([]*hit, error) {
	req := lk.w.findReq(tg)
	var hs []*hit
	for _, s := range lk.sessions() {
		c, err := lk.t.client(s)
		if err != nil {
			continue
		}
		var arr cdpruntime.RemoteObject
		lk.touched[s] = c
		err = lk.inSession(ctx, s, func(world cdpruntime.ExecutionContextID) error {
			var err error
			arr, err = callLocate(ctx, c, world, lk.group, req, nil, nil)
			return err
		})
		var objs []cdpruntime.RemoteObjectID
		if err == nil {
			objs, err = elementsOf(ctx, c, arr)
		}
		switch {
		case errors.Is(err, errLocatorScript):
			return nil, transport.Invalid(transport.OpAct, "request.target", "the page could not run this locator (a regex JavaScript does not accept?)")
		case err != nil && s == "":
			return nil, err
		case err != nil:
			continue
		}
		for _, o := range objs {
			hs = append(hs, &hit{el: outline.Element{Session: s}, c: c, obj: o})
		}
	}
	return hs, nil
}

// inSession runs fn with the session's isolated world, made again once when the world
// died with its document between two calls.
func (lk *look) inSession(ctx context.Context, session string, fn func(cdpruntime.ExecutionContextID) error) error {
	for attempt := 0; ; attempt++ {
		world, err := lk.t.worldIn(ctx, session)
		if err != nil {
			return err
		}
		err = fn(world)
		if err != nil && attempt == 0 && staleContext(err) {
			lk.t.forgetWorldIn(session)
			continue
		}
		return err
	}
}

// describe fills in a DOM-found hit's backend node id, role and accessible name from the
// accessibility tree, so its receipt and messages name it as a role look would. An element
// the tree leaves out (hidden, or ignored) keeps the role "generic" and no name. The name is
// bounded like an outline name.
func (lk *look) describe(ctx context.Context, h *hit) error {
	if h.el.Backend != 0 {
		return nil
	}
	ax, err := h.c.Accessibility.GetPartialAXTree(ctx, accessibility.NewGetPartialAXTreeArgs().SetObjectID(h.obj).SetFetchRelatives(false))
	if err == nil && len(ax.Nodes) > 0 && ax.Nodes[0].BackendDOMNodeID != nil {
		n := ax.Nodes[0]
		h.el.Backend = *n.BackendDOMNodeID
		h.el.Role, h.el.Name = "generic", ""
		if !n.Ignored {
			if r := axString(n.Role); r != "" && r != "none" {
				h.el.Role = outline.RoleName(r)
			}
			h.el.Name = lk.w.clipScrubbed(transport.FoldSpace(axString(n.Name)), budgets.OutlineNameChars)
		}
		return nil
	}
	d, derr := h.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetObjectID(h.obj))
	if derr != nil {
		return derr
	}
	h.el.Backend, h.el.Role = d.Node.BackendNodeID, "generic"
	return nil
}

func axString(v *accessibility.AXValue) string {
	if v == nil {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) != nil {
		return ""
	}
	return s
}
