package worker

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/transport"
)

// What a locator that found nothing, or too much, says.

// ambiguousListed is how many of an ambiguous locator's matches the refusal names.
const ambiguousListed = 5

// notFound is a look that found nothing: a *notYet, since the element may still come. A
// plain role look keeps its long-standing words (`no button named "Save"`) and names the
// element most likely meant; any other names the whole locator.
func (lk *look) notFound(tg transport.Target) error {
	var msg string
	plain := tg.Within == nil && tg.HasText == nil && tg.Has == nil && !tg.Picks()
	switch {
	case tg.Kind() == transport.LocateRole && plain && tg.Name != nil && !tg.Name.IsRegex():
		msg = fmt.Sprintf("no %s named %q", tg.Role, tg.Name.String)
	case tg.Kind() == transport.LocateRole:
		msg = "no " + tg.Describe()
	default:
		msg = "no element with " + tg.Describe()
	}
	hint := ""
	if plain {
		hint = nearHint(lk.near)
	}
	return &notYet{code: transport.CodeElementNotFound, msg: msg, hint: hint, appeared: true}
}

// ambiguous refuses a locator that matched more than one element without saying which:
// waiting will not make them one. It lists the first few, with their role, name and where
// they are in the tab's viewport, and says how to pick one.
func (lk *look) ambiguous(ctx context.Context, tg transport.Target, hs []*hit) error {
	shown := hs[:min(len(hs), ambiguousListed)]
	at := lk.centres(ctx, shown)
	parts := make([]string, len(shown))
	for i, h := range shown {
		_ = lk.describe(ctx, h)
		p := fmt.Sprintf("%d. %s %s", i+1, h.el.Role, quote(h.el.Name))
		if c, ok := at[h]; ok {
			p += fmt.Sprintf(" at (%d,%d)", int(c.x), int(c.y))
		}
		parts[i] = p
	}
	more := ""
	if len(hs) > len(shown) {
		more = "; …"
	}
	return transport.NewError(transport.OpAct, transport.PhaseValidate, transport.CodeElementAmbiguous, transport.RetryNever, transport.NotAttempted,
		"%d elements match %s: %s%s; add nth, first or last, or a refinement (within, hasText, has)",
		len(hs), tg.Describe(), strings.Join(parts, "; "), more).WithPath("request.target")
}

// centres reads where the hits are: the centre of each one's box in the tab's viewport.
// Best effort: a hit whose box cannot be read is listed without a place.
func (lk *look) centres(ctx context.Context, hs []*hit) map[*hit]point {
	out := map[*hit]point{}
	order, groups := bySession(hs)
	for _, s := range order {
		off, err := lk.t.offset(ctx, s)
		if err != nil {
			continue
		}
		_ = lk.inSession(ctx, s, func(world cdpruntime.ExecutionContextID) error {
			kept, objs, err := lk.handles(ctx, world, groups[s])
			if err != nil || len(kept) == 0 {
				return err
			}
			var boxes [][]float64
			if _, err := callLocate(ctx, kept[0].c, world, "", jsReq{Op: "boxes"}, objs, &boxes); err != nil {
				return err
			}
			for i, h := range kept {
				if i < len(boxes) && len(boxes[i]) == 2 {
					out[h] = point{boxes[i][0] + off.x, boxes[i][1] + off.y}
				}
			}
			return nil
		})
	}
	return out
}

// count is a count assertion's look: every match, no strictness.
func (w *Worker) count(ctx context.Context, t *tab, tg transport.Target) (scoped, error) {
	lk := newLook(w, t)
	defer lk.release(ctx)
	hs, err := lk.find(ctx, tg, true)
	if err != nil {
		return scoped{}, err
	}
	return scoped{value: strconv.Itoa(len(hs)), what: targetWords(tg)}, nil
}

// targetWords names a target in a message: a plain role look as `button named "Save"`,
// as it always has, any other as transport.Target.Describe does.
func targetWords(tg transport.Target) string {
	if tg.Kind() == transport.LocateRole && tg.Name != nil && !tg.Name.IsRegex() &&
		tg.Within == nil && tg.HasText == nil && tg.Has == nil && !tg.Picks() {
		return fmt.Sprintf("%s named %q", tg.Role, tg.Name.String)
	}
	return tg.Describe()
}
