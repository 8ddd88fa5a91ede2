package worker

import (
	"context"

	"github.com/mafredri/cdp/protocol/input"

	"github.com/fastbrowser/fastbrowser/transport"
)

// dragSteps is how many moves carry the pointer from the source to the target: more than one,
// so a page that follows mousemove (a slider, a sortable list) sees the way, and the first
// crosses Chromium's drag threshold for any but the nearest targets.
const dragSteps = 5

// dragWatchFn notes the first dragstart in the source's document, so the drag can tell
// whether the page began an HTML5 drag (and did not cancel it) once the pointer moved.
const dragWatchFn = `function () {
  this.__fastbrowser_drag = null;
  this.ownerDocument.addEventListener('dragstart', (e) => { if (!this.__fastbrowser_drag) this.__fastbrowser_drag = e; }, {capture: true});
  return true;
}`

const dragStartedFn = `function () { const e = this.__fastbrowser_drag; return !!e && !e.defaultPrevented; }`

// dragTo drags the source to the target as Playwright does: the modifiers down, the pointer
// to the source's point, the left button pressed, moves in steps to the target's point, the
// button released there, the modifiers up. Headless Chromium cannot run a native HTML5 drag,
// so drags are intercepted (Input.setInterceptDrags): when the page starts one, the rest of
// the way goes as drag events carrying the page's own drag data (dragEnter, dragOver) and the
// release is a drop. Verified when the target saw the drop, or the release reached the target
// or the source (a slider's thumb follows the pointer).
func (w *Worker) dragTo(ctx context.Context, t *tab, src *element, from point, dst *ready, p pointer) (transport.MutationState, error) {
	to := dst.at
	for _, ev := range []struct {
		el  *element
		typ string
	}{{dst.el, "drop"}, {dst.el, "mouseup"}, {src, "mouseup"}} {
		if err := w.call(ctx, t, ev.el, watchFn, nil, ev.typ); err != nil {
			return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
		}
	}
	if err := w.call(ctx, t, src, dragWatchFn, nil); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	intercepted, err := t.c.Input.DragIntercepted(ctx)
	if err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	defer intercepted.Close()
	if err := t.c.Input.SetInterceptDrags(ctx, input.NewSetInterceptDragsArgs(true)); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
	}
	defer t.c.Input.SetInterceptDrags(w.lifetime.ctx, input.NewSetInterceptDragsArgs(false))

	kb := &keyboard{w: w, t: t}
	m := mouse{kb}
	err = kb.hold(ctx, p.mods)
	if err == nil {
		err = m.event(ctx, "mouseMoved", from, input.MouseButtonNone, 0, 0)
	}
	if err == nil {
		err = m.event(ctx, "mousePressed", from, input.MouseButtonLeft, 1, 1)
	}
	var data *input.DragData
	for i := 1; err == nil && i <= dragSteps; i++ {
		at := point{from.x + (to.x-from.x)*float64(i)/dragSteps, from.y + (to.y-from.y)*float64(i)/dragSteps}
		if data != nil {
			err = w.dragEvent(ctx, kb, "dragOver", at, data)
			continue
		}
		if err = m.event(ctx, "mouseMoved", at, input.MouseButtonLeft, 1, 0); err != nil {
			break
		}
		var started bool
		if w.call(ctx, t, src, dragStartedFn, &started) != nil || !started {
			continue
		}
		// The page began an HTML5 drag: Chromium hands its data over instead of running it.
		ev, rerr := intercepted.Recv()
		if rerr != nil {
			err = kb.fail(rerr)
			break
		}
		data = &ev.Data
		err = w.dragEvent(ctx, kb, "dragEnter", at, data)
	}
	switch {
	case err != nil:
	case data != nil:
		err = w.dragEvent(ctx, kb, "drop", to, data)
	default:
		err = m.event(ctx, "mouseReleased", to, input.MouseButtonLeft, 0, 1)
	}
	if rerr := kb.release(ctx); err == nil {
		err = rerr
	}
	if err != nil {
		return "", err
	}
	if w.landed(ctx, t, dst.el, "drop") || w.landed(ctx, t, dst.el, "mouseup") || w.landed(ctx, t, src, "mouseup") {
		return transport.Verified, nil
	}
	return transport.Unknown, nil
}

func (w *Worker) dragEvent(ctx context.Context, kb *keyboard, typ string, at point, data *input.DragData) error {
	args := input.NewDispatchDragEventArgs(typ, at.x, at.y, *data).SetModifiers(kb.bits)
	if err := kb.t.c.Input.DispatchDragEvent(ctx, args); err != nil {
		return kb.fail(err)
	}
	return nil
}
