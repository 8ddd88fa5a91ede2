package worker

import (
	"context"
	"errors"

	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/transport"
)

// The refinements of a look (locate.go): hasText, within and has, each one locate.js call
// per session with the hits as handles in the session's isolated world.

// bySession groups hits by session, keeping their order.
func bySession(hs []*hit) (order []string, groups map[string][]*hit) {
	groups = map[string][]*hit{}
	for _, h := range hs {
		if _, ok := groups[h.el.Session]; !ok {
			order = append(order, h.el.Session)
		}
		groups[h.el.Session] = append(groups[h.el.Session], h)
	}
	return order, groups
}

// handles gives every hit a handle in the session's isolated world, dropping those that
// left the page.
func (lk *look) handles(ctx context.Context, world cdpruntime.ExecutionContextID, hs []*hit) ([]*hit, []cdpruntime.RemoteObjectID, error) {
	kept := hs[:0:0]
	objs := make([]cdpruntime.RemoteObjectID, 0, len(hs))
	for _, h := range hs {
		if h.obj == "" {
			lk.touched[h.el.Session] = h.c
			o, err := inWorld(ctx, h.c, world, lk.group, h.el.Backend)
			if err != nil {
				if ctx.Err() != nil {
					return nil, nil, ctx.Err()
				}
				continue
			}
			h.obj = o
		}
		kept = append(kept, h)
		objs = append(objs, h.obj)
	}
	return kept, objs, nil
}

// hasText keeps the hits whose whole text (folded) holds the match: a case-insensitive
// substring for a string, whatever the target's exact says (Playwright's hasText).
func (lk *look) hasText(ctx context.Context, hs []*hit, m *transport.TextMatch) ([]*hit, error) {
	var out []*hit
	order, groups := bySession(hs)
	for _, s := range order {
		g := groups[s]
		err := lk.inSession(ctx, s, func(world cdpruntime.ExecutionContextID) error {
			kept, objs, err := lk.handles(ctx, world, g)
			if err != nil || len(kept) == 0 {
				return err
			}
			var ok []bool
			if _, err := callLocate(ctx, kept[0].c, world, "", jsReq{Op: "hasText", Match: toJSMatch(m, false)}, objs, &ok); err != nil {
				return err
			}
			out = append(out, marked(kept, ok)...)
			return nil
		})
		if err := lk.refineFailed(err, s); err != nil {
			return nil, err
		}
	}
	return sortLike(hs, out), nil
}

// related keeps the hits inside one of others (op "within") or holding one of others (op
// "has"), comparing elements of one session.
func (lk *look) related(ctx context.Context, hs, others []*hit, op string) ([]*hit, error) {
	if len(others) == 0 {
		return nil, nil
	}
	_, near := bySession(others)
	var out []*hit
	order, groups := bySession(hs)
	for _, s := range order {
		if len(near[s]) == 0 {
			continue
		}
		g := groups[s]
		err := lk.inSession(ctx, s, func(world cdpruntime.ExecutionContextID) error {
			kept, objs, err := lk.handles(ctx, world, g)
			if err != nil || len(kept) == 0 {
				return err
			}
			_, oobjs, err := lk.handles(ctx, world, near[s])
			if err != nil || len(oobjs) == 0 {
				return err
			}
			var ok []bool
			req := jsReq{Op: op, N: len(objs)}
			if _, err := callLocate(ctx, kept[0].c, world, "", req, append(objs, oobjs...), &ok); err != nil {
				return err
			}
			out = append(out, marked(kept, ok)...)
			return nil
		})
		if err := lk.refineFailed(err, s); err != nil {
			return nil, err
		}
	}
	return sortLike(hs, out), nil
}

// refineFailed is what a refinement's failure in a session means: the tab's own fails the
// look; an out-of-process frame that went away leaves its elements out.
func (lk *look) refineFailed(err error, session string) error {
	if err == nil || session != "" && ctxAlive(err) {
		return nil
	}
	return err
}

func ctxAlive(err error) bool {
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}

// sortLike puts kept back in the order of all (grouping by session moved them).
func sortLike(all, kept []*hit) []*hit {
	in := make(map[*hit]bool, len(kept))
	for _, h := range kept {
		in[h] = true
	}
	out := kept[:0:0]
	for _, h := range all {
		if in[h] {
			out = append(out, h)
		}
	}
	return out
}

// marked is the hits the page's answer marks true, one answer per hit in order.
func marked(hs []*hit, ok []bool) []*hit {
	var out []*hit
	for i, h := range hs {
		if i < len(ok) && ok[i] {
			out = append(out, h)
		}
	}
	return out
}
