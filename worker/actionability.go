package worker

import (
	"context"

	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// state is what the actionability checks read from the element.
type elementState struct {
	Connected bool   `json:"connected"`
	Visible   bool   `json:"visible"`
	Enabled   bool   `json:"enabled"`
	Editable  bool   `json:"editable"`
	Checkable bool   `json:"checkable"`
	Checked   bool   `json:"checked"`
	Tag       string `json:"tag"`
	Type      string `json:"type"`
}

const stateFn = `function () {
  const el = this;
  const tag = el.tagName ? el.tagName.toLowerCase() : '';
  const type = (el.getAttribute && (el.getAttribute('type') || '')).toLowerCase();
  const aria = (n) => el.getAttribute && el.getAttribute(n);
  const visible = !!(el.isConnected && el.checkVisibility && el.checkVisibility({opacityProperty: true, visibilityProperty: true}) &&
    el.getClientRects().length > 0);
  const disabled = !!el.disabled || aria('aria-disabled') === 'true' || !!(el.closest && el.closest('fieldset[disabled]'));
  const textInput = (tag === 'input' && !['checkbox','radio','button','submit','reset','file','image','hidden','range','color'].includes(type)) || tag === 'textarea';
  const editable = (textInput && !el.readOnly) || el.isContentEditable;
  const checkable = (tag === 'input' && (type === 'checkbox' || type === 'radio')) || ['checkbox','radio','switch','menuitemcheckbox'].includes(aria('role'));
  const checked = tag === 'input' ? !!el.checked : aria('aria-checked') === 'true';
  return {connected: el.isConnected, visible, enabled: !disabled, editable, checkable, checked, tag, type};
}`

func (w *Worker) readState(ctx context.Context, t *tab, el *element) (elementState, error) {
	var st elementState
	err := w.call(ctx, t, el, stateFn, &st)
	return st, err
}

// clickPoint scrolls the element into view and returns the centre of its first content quad
// in the tab's viewport, refusing (a *notYet: an overlay may go, a box may come) when another
// element would receive a click there. In an
// out-of-process frame the point is checked twice over: inside the frame against the
// element, and in each parent against the frame's <iframe>.
func (w *Worker) clickPoint(ctx context.Context, t *tab, el *element) (float64, float64, error) {
	_ = el.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetBackendNodeID(el.Backend))
	q, err := el.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetBackendNodeID(el.Backend))
	if err != nil || len(q.Quads) == 0 || len(q.Quads[0]) != 8 {
		return 0, 0, notActionable(el, "has no box to click")
	}
	quad := q.Quads[0]
	local := point{(quad[0] + quad[2] + quad[4] + quad[6]) / 4, (quad[1] + quad[3] + quad[5] + quad[7]) / 4}
	covered := notActionable(el, "is covered by another element at its click point")
	var onTop bool
	if err := w.call(ctx, t, el, hitTestFn, &onTop, local.x, local.y); err != nil || !onTop {
		return 0, 0, covered
	}
	off, err := t.offset(ctx, el.Session)
	if err != nil {
		return 0, 0, notActionable(el, "is in a frame whose place on the page cannot be read")
	}
	x, y := local.x+off.x, local.y+off.y
	if ok, err := w.framesOnTop(ctx, t, el.Session, x, y); err != nil || !ok {
		return 0, 0, covered
	}
	return x, y, nil
}

// framesOnTop reports whether a click at (x, y) in the tab's viewport reaches the <iframe> of
// every out-of-process frame from session up to the tab.
func (w *Worker) framesOnTop(ctx context.Context, t *tab, session string, x, y float64) (bool, error) {
	for depth := 0; session != ""; depth++ {
		f, err := t.frame(session)
		if err != nil || depth > budgets.FrameDepth {
			return false, errFrameGone
		}
		owner, err := t.owner(ctx, f)
		if err != nil {
			return false, err
		}
		pc, err := t.client(f.parent)
		if err != nil {
			return false, err
		}
		obj, err := w.resolve(ctx, t, f.parent, pc, owner)
		if err != nil {
			return false, err
		}
		off, err := t.offset(ctx, f.parent)
		if err != nil {
			return false, err
		}
		var onTop bool
		if err := w.call(ctx, t, &element{c: pc, object: obj}, hitTestFn, &onTop, x-off.x, y-off.y); err != nil || !onTop {
			return false, err
		}
		session = f.parent
	}
	return true, nil
}

// hitTestFn reports whether a click at point (x, y) of its session's viewport would reach the
// element (itself or a descendant): the point is translated into the element's own frame
// through same-process parents, and a shadow root answers for its own tree.
const hitTestFn = `function (x, y) {
  let fx = x, fy = y;
  for (let w = this.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
    const f = w.frameElement, r = f.getBoundingClientRect();
    fx -= r.left + f.clientLeft; fy -= r.top + f.clientTop;
  }
  const root = this.getRootNode();
  const h = (root && root.elementFromPoint ? root : this.ownerDocument).elementFromPoint(fx, fy);
  return !!h && (h === this || this.contains(h));
}`
