package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// element is a resolved act target: what the outline said about it, the session it lives
// in (the tab's, or an out-of-process frame's), and a handle to call our fixed element
// functions on.
type element struct {
	outline.Element
	c      *cdp.Client
	object cdpruntime.RemoteObjectID
}

// locate resolves an act target. A ref must come from the tab's current document: refs are
// numbered across the whole worker, so one issued for another tab or an earlier document is
// refused stale_document (refs.go), never resolved here. Any other locator (locate.go) must
// match exactly one element, or say which of several it means (nth, first, last): more is
// refused element_ambiguous, naming the first few. What waiting may cure (no match yet, a
// match that left the page) is a *notYet: the act looks again (actwait.go).
func (w *Worker) locate(ctx context.Context, t *tab, tg transport.Target) (*element, error) {
	return w.locateAny(ctx, t, tg, true)
}

// locateAny is locate for an act (actionable: the element gets a ref) or, with actionable
// false, for an assertion's target: a region, a heading, a table too.
func (w *Worker) locateAny(ctx context.Context, t *tab, tg transport.Target, actionable bool) (*element, error) {
	t.mu.Lock()
	loader, refs := t.loader, t.refs
	t.mu.Unlock()
	var el outline.Element
	if tg.Ref != "" {
		var ok bool
		if refs != nil && refs.loader == loader {
			t.mu.Lock()
			el, ok = refs.byRef[tg.Ref]
			t.mu.Unlock()
		}
		switch {
		case ok:
		case issued(tg.Ref, &w.refSeq):
			return nil, actError(transport.CodeStaleDocument, "ref %s was issued for another tab or an earlier document; observe this tab again", tg.Ref)
		case refs == nil || refs.loader != loader:
			return nil, actError(transport.CodeElementNotFound, "ref %s was never issued; observe first", tg.Ref)
		default:
			return nil, actError(transport.CodeElementNotFound, "ref %s was never issued", tg.Ref)
		}
	} else {
		lk := newLook(w, t)
		defer lk.release(ctx)
		hs, err := lk.find(ctx, tg, true)
		if err != nil {
			var oe *transport.OperationError
			if errors.As(err, &oe) {
				return nil, err
			}
			return nil, w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
		}
		switch len(hs) {
		case 0:
			return nil, lk.notFound(tg)
		case 1:
		default:
			return nil, lk.ambiguous(ctx, tg, hs)
		}
		if err := lk.describe(ctx, hs[0]); err != nil {
			return nil, &notYet{code: transport.CodeElementNotFound, msg: "the element " + tg.Describe() + " matched is no longer in the page"}
		}
		el = hs[0].el // its handle goes with the look's; it gets one of its own below
		if actionable {
			t.mu.Lock()
			rt := t.refsFor(loader)
			el.Ref = rt.refFor(el.Key(), &w.refSeq)
			rt.remember([]outline.Element{el})
			t.mu.Unlock()
		}
	}
	// A ref names one node, which cannot come back; any other locator is looked up again.
	gone := func(why string) error {
		if tg.Ref != "" {
			return actError(transport.CodeElementNotFound, "%s %s", elementLabel(el), why)
		}
		return &notYet{code: transport.CodeElementNotFound, msg: elementLabel(el) + " " + why}
	}
	c, err := t.client(el.Session)
	if err != nil {
		return nil, gone("is in a frame that has gone")
	}
	obj, err := w.resolve(ctx, t, el.Session, c, el.Backend)
	if err != nil {
		return nil, gone("is no longer in the page")
	}
	return &element{Element: el, c: c, object: obj}, nil
}

// elementLabel names an element in a message: its ref and role (as act always has), or its
// role and name when it has no ref (an assertion's container).
func elementLabel(el outline.Element) string {
	if el.Ref != "" {
		return el.Ref + " " + el.Role
	}
	return el.Role + " " + quote(el.Name)
}

// nearHint names the element a not-found role and name most likely meant (outline.Lookup's
// near miss): `; a link named "Sign in" exists`.
func nearHint(near *outline.Element) string {
	if near == nil {
		return ""
	}
	return fmt.Sprintf("; %s %s named %q exists", article(near.Role), near.Role, near.Name)
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// resolve gives a handle on a DOM node of a session: in our isolated world when the node is
// in the session's main frame, else in its own frame's world.
func (w *Worker) resolve(ctx context.Context, t *tab, session string, c *cdp.Client, b dom.BackendNodeID) (cdpruntime.RemoteObjectID, error) {
	if world, err := t.worldIn(ctx, session); err == nil {
		r, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b).SetExecutionContextID(world))
		if err == nil && r.Object.ObjectID != nil {
			return *r.Object.ObjectID, nil
		}
		if err != nil && staleContext(err) {
			t.forgetWorldIn(session)
		}
	}
	r, err := c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b))
	if err != nil {
		return "", err
	}
	if r.Object.ObjectID == nil {
		return "", errors.New("node has no object")
	}
	return *r.Object.ObjectID, nil
}

// call runs one of our fixed element functions with the element as `this`.
func (w *Worker) call(ctx context.Context, t *tab, el *element, fn string, out any, args ...any) error {
	ca := make([]cdpruntime.CallArgument, 0, len(args))
	for _, a := range args {
		raw, err := json.Marshal(a)
		if err != nil {
			return err
		}
		ca = append(ca, cdpruntime.CallArgument{Value: raw})
	}
	reply, err := el.c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(fn).
		SetObjectID(el.object).SetArguments(ca).SetReturnByValue(true).SetSilent(true))
	if err != nil {
		return err
	}
	if reply.ExceptionDetails != nil {
		return errScript
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(reply.Result.Value, out)
}

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

func actError(code transport.Code, format string, args ...any) error {
	retry := transport.RetryNever
	if code == transport.CodeElementNotActionable || code == transport.CodeElementNotFound {
		retry = transport.RetrySafe
	}
	return transport.NewError(transport.OpAct, transport.PhaseValidate, code, retry, transport.NotAttempted, "%s", fmt.Sprintf(format, args...))
}
