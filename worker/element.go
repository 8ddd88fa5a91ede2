package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mafredri/cdp/protocol/dom"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
)

// element is a resolved act target: what the outline said about it and a handle to call
// our fixed element functions on.
type element struct {
	outline.Element
	object cdpruntime.RemoteObjectID
}

// locate resolves an act target. A ref must come from the tab's current document; role and
// name must match exactly one element. Nothing reaches the page here.
func (w *Worker) locate(ctx context.Context, t *tab, tg transport.Target) (*element, error) {
	t.mu.Lock()
	loader, refs := t.loader, t.refs
	t.mu.Unlock()
	var el outline.Element
	if tg.Ref != "" {
		if refs == nil || refs.loader != loader {
			if refs != nil && refs.next > 0 {
				return nil, actError(transport.CodeStaleDocument, "ref %s belongs to a document this tab has left; observe again", tg.Ref)
			}
			return nil, actError(transport.CodeElementNotFound, "no outline has been taken of this document; observe first")
		}
		t.mu.Lock()
		e, ok := refs.byRef[tg.Ref]
		t.mu.Unlock()
		if !ok {
			return nil, actError(transport.CodeElementNotFound, "ref %s is not in this document's outline", tg.Ref)
		}
		el = e
	} else {
		frames, err := w.axFrames(ctx, t)
		if err != nil {
			return nil, w.cdpFailure(transport.OpAct, transport.NotAttempted, err)
		}
		exact := tg.Exact == nil || *tg.Exact
		found := outline.Find(frames, tg.Role, tg.Name, exact)
		switch len(found) {
		case 0:
			return nil, actError(transport.CodeElementNotFound, "no %s named %q", tg.Role, tg.Name)
		case 1:
			el = found[0]
		default:
			return nil, actError(transport.CodeElementAmbiguous, "%d elements are %s named %q; use a ref from observe", len(found), tg.Role, tg.Name)
		}
		t.mu.Lock()
		rt := t.refsFor(loader)
		el.Ref = rt.refFor(el.Backend)
		rt.remember([]outline.Element{el})
		t.mu.Unlock()
	}
	obj, err := w.resolve(ctx, t, el.Backend)
	if err != nil {
		return nil, actError(transport.CodeElementNotFound, "%s %s is no longer in the page", el.Ref, el.Role)
	}
	return &element{Element: el, object: obj}, nil
}

// resolve gives a handle on a DOM node: in our isolated world when the node is in the main
// frame, else in its own frame's world.
func (w *Worker) resolve(ctx context.Context, t *tab, b dom.BackendNodeID) (cdpruntime.RemoteObjectID, error) {
	if world, err := t.isolatedWorld(ctx); err == nil {
		r, err := t.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b).SetExecutionContextID(world))
		if err == nil && r.Object.ObjectID != nil {
			return *r.Object.ObjectID, nil
		}
	}
	r, err := t.c.DOM.ResolveNode(ctx, dom.NewResolveNodeArgs().SetBackendNodeID(b))
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
	reply, err := t.c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(fn).
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

// clickPoint scrolls the element into view and returns the centre of its first content quad,
// refusing when another element would receive a click there.
func (w *Worker) clickPoint(ctx context.Context, t *tab, el *element) (float64, float64, error) {
	_ = t.c.DOM.ScrollIntoViewIfNeeded(ctx, dom.NewScrollIntoViewIfNeededArgs().SetBackendNodeID(el.Backend))
	q, err := t.c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetBackendNodeID(el.Backend))
	if err != nil || len(q.Quads) == 0 || len(q.Quads[0]) != 8 {
		return 0, 0, actError(transport.CodeElementNotActionable, "%s %s %q has no box to click", el.Ref, el.Role, el.Name)
	}
	quad := q.Quads[0]
	x := (quad[0] + quad[2] + quad[4] + quad[6]) / 4
	y := (quad[1] + quad[3] + quad[5] + quad[7]) / 4
	var onTop bool
	if err := w.call(ctx, t, el, hitTestFn, &onTop, x, y); err != nil || !onTop {
		return 0, 0, actError(transport.CodeElementNotActionable, "%s %s %q is covered by another element at its click point", el.Ref, el.Role, el.Name)
	}
	return x, y, nil
}

// hitTestFn reports whether a click at viewport point (x, y) of the top frame would reach the
// element (itself or a descendant): the point is translated into the element's own frame,
// and a shadow root answers for its own tree.
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
