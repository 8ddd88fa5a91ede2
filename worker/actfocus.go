package worker

import (
	"context"
	"time"

	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The actions that move focus or the viewport, not the pointer: focus, blur, scrollIntoView.

// activeFn reports whether the element has focus in its own document or shadow root.
const activeFn = `function () { const r = this.getRootNode(); return !!r && r.activeElement === this; }`

// focus focuses the element as DOM.focus does (focus and focusin fire); verified when it is
// the active element.
func (w *Worker) focus(ctx context.Context, t *tab, el *element) (transport.MutationState, error) {
	if err := el.c.DOM.Focus(ctx, dom.NewFocusArgs().SetBackendNodeID(el.Backend)); err != nil {
		return "", actError(transport.CodeElementNotActionable, "%s %s %q cannot take focus", el.Ref, el.Role, el.Name)
	}
	return w.verify(ctx, t, el, activeFn), nil
}

// blur takes focus from the element, as Playwright's blur does, by calling its blur() (blur
// and focusout fire); verified when it is no longer the active element.
func (w *Worker) blur(ctx context.Context, t *tab, el *element) (transport.MutationState, error) {
	if err := w.call(ctx, t, el, `function () { this.blur(); return true; }`, nil); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	return w.verify(ctx, t, el, `function () { const r = this.getRootNode(); return !r || r.activeElement !== this; }`), nil
}

// scrollIntoView scrolls the element into view if it is not already; verified when its box
// meets its frame's viewport.
func (w *Worker) scrollIntoView(ctx context.Context, t *tab, el *element) (transport.MutationState, error) {
	if err := el.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetBackendNodeID(el.Backend)); err != nil {
		return "", w.cdpFailure(transport.OpAct, transport.Unknown, err)
	}
	const inViewFn = `function () {
  const r = this.getBoundingClientRect(), v = this.ownerDocument.defaultView;
  return r.bottom > 0 && r.right > 0 && r.top < v.innerHeight && r.left < v.innerWidth;
}`
	return w.verify(ctx, t, el, inViewFn), nil
}

// verify reads one of our fixed boolean element functions (with args) until it holds
// (verified) or the action-verification budget ends (unknown: the input went out, its effect
// was not seen).
func (w *Worker) verify(ctx context.Context, t *tab, el *element, fn string, args ...any) transport.MutationState {
	ctx, cancel := context.WithTimeout(ctx, budgets.ActionVerification().Default)
	defer cancel()
	for {
		var ok bool
		if err := w.call(ctx, t, el, fn, &ok, args...); err == nil && ok {
			return transport.Verified
		}
		select {
		case <-ctx.Done():
			return transport.Unknown
		case <-time.After(budgets.ActPoll):
		}
	}
}
