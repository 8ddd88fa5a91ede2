package worker

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Actionability as Playwright defines it (playwright.dev/docs/actionability): which checks an
// action waits for, what each check means, and the point a pointer action aims at.

// checks are the actionability checks an action waits for before anything is dispatched.
type checks struct {
	visible  bool // a non-empty box, not visibility:hidden, not display:none (opacity:0 is visible)
	stable   bool // the same box on two consecutive animation frames
	enabled  bool // not disabled natively, by a fieldset, or by aria-disabled on it or an ancestor
	editable bool // a text field or contenteditable that is not read-only
	events   bool // the hit test at the action point lands on the element or a descendant
}

// checksFor is Playwright's table: pointer actions want the element visible, stable and
// receiving events (and enabled, except hover); text entry visible, enabled and editable;
// select visible and enabled; scrollIntoView visible and stable; focus, blur, press and
// upload only attached. Force drops all but editable: a field that cannot take text still
// cannot.
func checksFor(r *transport.Act) checks {
	var c checks
	switch r.Action {
	case transport.ActClick, transport.ActDblclick, transport.ActCheck, transport.ActUncheck, transport.ActDragTo:
		c = checks{visible: true, stable: true, enabled: true, events: true}
	case transport.ActHover:
		c = checks{visible: true, stable: true, events: true}
	case transport.ActType, transport.ActFill, transport.ActClear:
		c = checks{visible: true, enabled: true, editable: true}
	case transport.ActSelect:
		c = checks{visible: true, enabled: true}
	case transport.ActScrollIntoView:
		c = checks{visible: true, stable: true}
	}
	if r.Force {
		c = checks{editable: c.editable}
	}
	return c
}

// aims reports whether the action puts the pointer on the element: it then scrolls it into
// view and needs a point on it.
func aims(action string) bool {
	switch action {
	case transport.ActClick, transport.ActDblclick, transport.ActHover, transport.ActDragTo, transport.ActCheck, transport.ActUncheck:
		return true
	}
	return false
}

// actionable refuses, before anything is dispatched, an element the action cannot use. What
// may change while the act waits (attached, visible, enabled, editable) is a *notYet; what
// the element is (not a checkbox, not a select, a radio to uncheck) is refused at once. A
// ref's element that left the page cannot come back.
func actionable(r *transport.Act, el *element, st elementState) error {
	need := checksFor(r)
	switch {
	case !st.Connected && r.Target.Ref != "":
		return actError(transport.CodeElementNotFound, "%s is no longer in the page", el.Ref)
	case !st.Connected:
		return &notYet{code: transport.CodeElementNotFound, msg: fmt.Sprintf("%s is no longer in the page", el.Ref)}
	case need.visible && !st.Visible:
		return notActionable(el, "is not visible")
	case need.enabled && !st.Enabled:
		return notActionable(el, "is disabled")
	case need.editable && !st.Fillable:
		return notActionable(el, "is not an editable text field")
	case need.editable && st.ReadOnly:
		return notActionable(el, "is read-only")
	case (r.Action == transport.ActCheck || r.Action == transport.ActUncheck) && !st.Checkable:
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a checkbox or radio", el.Ref, el.Role, el.Name)
	case r.Action == transport.ActUncheck && st.Type == "radio":
		return actError(transport.CodeElementNotActionable, "%s radio %q cannot be unchecked; check another option", el.Ref, el.Name)
	case r.Action == transport.ActSelect && st.Tag != "select":
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a select", el.Ref, el.Role, el.Name)
	case r.Action == transport.ActUpload && !(st.Tag == "input" && st.Type == "file"):
		return actError(transport.CodeElementNotActionable, "%s %s %q is not a file input", el.Ref, el.Role, el.Name)
	}
	return nil
}

// box is an element's border box in its frame's viewport: x, y, width, height.
type box [4]float64

// elementState is what the actionability checks read from the element.
type elementState struct {
	Connected bool   `json:"connected"`
	Visible   bool   `json:"visible"`
	Enabled   bool   `json:"enabled"`
	Fillable  bool   `json:"fillable"` // a text field or contenteditable
	ReadOnly  bool   `json:"readOnly"`
	Checkable bool   `json:"checkable"`
	Checked   bool   `json:"checked"`
	Tag       string `json:"tag"`
	Type      string `json:"type"`
	Box       box    `json:"box"`
	// Animating: a running animation or transition targets the element or an ancestor, so
	// its box may be moving between frames (stableFn then watches two frames).
	Animating bool `json:"animating"`
}

// stateFn reads the element's state in one call. Visible follows Playwright's
// isElementVisible: checkVisibility() without the opacity option (opacity:0 is visible,
// display:none is not), visibility "visible", a non-empty box; display:contents is visible
// when a child is. Enabled follows getAriaDisabled: :disabled (native, a disabled fieldset
// but its first legend, a disabled optgroup) or the nearest explicit aria-disabled on the
// element or an ancestor, across shadow roots.
const stateFn = `function () {
  const el = this;
  const tag = el.tagName ? el.tagName.toLowerCase() : '';
  const attr = (e, n) => ((e.getAttribute && e.getAttribute(n)) || '').toLowerCase();
  const type = attr(el, 'type');
  const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;
  const win = el.ownerDocument && el.ownerDocument.defaultView;
  const visibleOf = (e) => {
    const s = win.getComputedStyle(e);
    if (s.display === 'contents') {
      for (let c = e.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 1 && visibleOf(c)) return true;
        if (c.nodeType === 3) { const r = document.createRange(); r.selectNode(c); const b = r.getBoundingClientRect(); if (b.width > 0 && b.height > 0) return true; }
      }
      return false;
    }
    if (e.checkVisibility && !e.checkVisibility()) return false;
    if (s.visibility !== 'visible') return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const visible = !!(el.isConnected && win && visibleOf(el));
  let disabled = false;
  try { disabled = el.matches(':disabled'); } catch (e) {}
  for (let e = el; !disabled && e; e = up(e)) {
    const a = attr(e, 'aria-disabled');
    if (a === 'true') disabled = true;
    if (a === 'true' || a === 'false') break;
  }
  const textInput = (tag === 'input' && !['checkbox','radio','button','submit','reset','file','image','hidden','range','color'].includes(type)) || tag === 'textarea';
  const fillable = textInput || !!el.isContentEditable;
  const readOnly = (textInput && el.hasAttribute('readonly')) || attr(el, 'aria-readonly') === 'true';
  const checkable = (tag === 'input' && (type === 'checkbox' || type === 'radio')) || ['checkbox','radio','switch','menuitemcheckbox'].includes(attr(el, 'role'));
  const checked = tag === 'input' ? !!el.checked : attr(el, 'aria-checked') === 'true';
  const r = el.getBoundingClientRect();
  let animating = false;
  const doc = el.ownerDocument;
  if (doc && doc.getAnimations) {
    for (const a of doc.getAnimations()) {
      const t = a.playState === 'running' && a.effect && a.effect.target;
      for (let e = el; t && e && !animating; e = up(e)) animating = e === t;
      if (animating) break;
    }
  }
  return {connected: el.isConnected, visible, enabled: !disabled, fillable, readOnly, checkable, checked, tag, type,
    box: [r.x, r.y, r.width, r.height], animating};
}`

func (w *Worker) readState(ctx context.Context, t *tab, el *element) (elementState, error) {
	var st elementState
	err := w.call(ctx, t, el, stateFn, &st)
	return st, err
}

// stableFn compares the element's box on two consecutive animation frames. A frame that
// does not come (a tab Chromium does not render) is stood in for by 100 ms, so the call
// always ends.
const stableFn = `async function () {
  const win = this.ownerDocument.defaultView;
  const frame = () => new Promise((res) => { win.requestAnimationFrame(() => res()); win.setTimeout(res, 100); });
  const box = () => { const r = this.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  await frame();
  const a = box();
  await frame();
  const b = box();
  return a.every((v, i) => v === b[i]);
}`

// stable reports whether the element's box held still. Waiting frames costs up to two of
// them, so it is only done when an animation runs on the element or an ancestor; otherwise
// the box of the state read is compared with the box the hit test reads a few calls later
// (hitTarget), which still catches an element a script moves between the two.
func (w *Worker) stable(ctx context.Context, t *tab, el *element, st elementState) (bool, error) {
	if !st.Animating {
		return true, nil
	}
	var still bool
	err := w.callAwait(ctx, el, stableFn, &still)
	return still, err
}

// callAwait runs one of our fixed async element functions and waits for its promise.
func (w *Worker) callAwait(ctx context.Context, el *element, fn string, out any) error {
	reply, err := el.c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(fn).
		SetObjectID(el.object).SetReturnByValue(true).SetSilent(true).SetAwaitPromise(true))
	if err != nil {
		return err
	}
	if reply.ExceptionDetails != nil {
		return errScript
	}
	return json.Unmarshal(reply.Result.Value, out)
}

// actionPoint returns the point the
// pointer goes to, in the tab's viewport: pos from the element's top-left corner, else the
// centre of its first content quad. Unless force, the point must reach the element: when
// another element would receive the input there, the refusal (a *notYet: an overlay may go)
// names that element by tag, id and class. In an out-of-process frame the point is checked
// twice over: inside the frame against the element, and in each parent against the frame's
// <iframe>. The box the hit test reads must be the state read's (stable).
func (w *Worker) actionPoint(ctx context.Context, t *tab, el *element, pos *transport.Point, st elementState, need checks) (point, error) {
	q, err := el.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetBackendNodeID(el.Backend))
	if err != nil || len(q.Quads) == 0 || len(q.Quads[0]) != 8 {
		return point{}, notActionable(el, "has no box to click")
	}
	quad := q.Quads[0]
	local := point{(quad[0] + quad[2] + quad[4] + quad[6]) / 4, (quad[1] + quad[3] + quad[5] + quad[7]) / 4}
	if pos != nil {
		local = point{quad[0] + pos.X, quad[1] + pos.Y}
	}
	if need.events || need.stable {
		var hit hitResult
		if err := w.call(ctx, t, el, hitTestFn, &hit, local.x, local.y); err != nil {
			return point{}, notActionable(el, "is covered by another element at its action point")
		}
		if need.stable && hit.Box != st.Box {
			return point{}, notActionable(el, "is not stable (its box is moving)")
		}
		if need.events && !hit.Hit {
			return point{}, w.covered(el, hit.By)
		}
	}
	off, err := t.offset(ctx, el.Session)
	if err != nil {
		return point{}, notActionable(el, "is in a frame whose place on the page cannot be read")
	}
	at := point{local.x + off.x, local.y + off.y}
	if need.events {
		if ok, by, err := w.framesOnTop(ctx, t, el.Session, at.x, at.y); err != nil || !ok {
			return point{}, w.covered(el, by)
		}
	}
	return at, nil
}

// covered is the refusal for an element another one stands over, naming that one as
// hitTestFn described it (never its text), with the session's secrets masked all the same.
func (w *Worker) covered(el *element, by string) *notYet {
	if by == "" {
		return notActionable(el, "is covered by another element at its action point")
	}
	return notActionable(el, "is covered: "+w.scrubMasked(by)+" intercepts pointer events")
}

// framesOnTop reports whether a click at (x, y) in the tab's viewport reaches the <iframe> of
// every out-of-process frame from session up to the tab, and what it reaches instead.
func (w *Worker) framesOnTop(ctx context.Context, t *tab, session string, x, y float64) (bool, string, error) {
	for depth := 0; session != ""; depth++ {
		f, err := t.frame(session)
		if err != nil || depth > budgets.FrameDepth {
			return false, "", errFrameGone
		}
		owner, err := t.owner(ctx, f)
		if err != nil {
			return false, "", err
		}
		pc, err := t.client(f.parent)
		if err != nil {
			return false, "", err
		}
		obj, err := w.resolve(ctx, t, f.parent, pc, owner)
		if err != nil {
			return false, "", err
		}
		off, err := t.offset(ctx, f.parent)
		if err != nil {
			return false, "", err
		}
		var hit hitResult
		if err := w.call(ctx, t, &element{c: pc, object: obj}, hitTestFn, &hit, x-off.x, y-off.y); err != nil || !hit.Hit {
			return false, hit.By, err
		}
		session = f.parent
	}
	return true, "", nil
}

// hitResult is hitTestFn's answer: whether the point reaches the element, what it reaches
// instead, and the element's box as read then.
type hitResult struct {
	Hit bool   `json:"hit"`
	By  string `json:"by"`
	Box box    `json:"box"`
}

// hitTestFn reports whether a click at point (x, y) of its session's viewport would reach the
// element (itself or a descendant): the point is translated into the element's own frame
// through same-process parents, and a shadow root answers for its own tree. What it reaches
// instead is described by tag, id and class only, each clipped: never its text.
const hitTestFn = `function (x, y) {
  let fx = x, fy = y;
  for (let w = this.ownerDocument.defaultView; w && w.frameElement; w = w.parent) {
    const f = w.frameElement, r = f.getBoundingClientRect();
    fx -= r.left + f.clientLeft; fy -= r.top + f.clientTop;
  }
  const root = this.getRootNode();
  const h = (root && root.elementFromPoint ? root : this.ownerDocument).elementFromPoint(fx, fy);
  const r = this.getBoundingClientRect();
  const box = [r.x, r.y, r.width, r.height];
  if (h && (h === this || this.contains(h))) return {hit: true, box};
  const clip = (s, n) => { s = s.replace(/["<>\s]+/g, ' ').trim(); return s.length > n ? s.slice(0, n) + '…' : s; };
  let by = '';
  if (h) {
    by = '<' + h.tagName.toLowerCase();
    if (h.id) by += ' id="' + clip(h.id, 40) + '"';
    const cls = h.getAttribute('class');
    if (cls && cls.trim()) by += ' class="' + clip(cls, 60) + '"';
    by += '>';
  }
  return {hit: false, by, box};
}`
