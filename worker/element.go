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
	return resolveNode(ctx, c, dom.NewResolveNodeArgs().SetBackendNodeID(b))
}

// resolveNode is DOM.resolveNode's object id, or an error when the node has none.
func resolveNode(ctx context.Context, c *cdp.Client, args *dom.ResolveNodeArgs) (cdpruntime.RemoteObjectID, error) {
	r, err := c.DOM.ResolveNode(ctx, args)
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

func actError(code transport.Code, format string, args ...any) error {
	retry := transport.RetryNever
	if code == transport.CodeElementNotActionable || code == transport.CodeElementNotFound {
		retry = transport.RetrySafe
	}
	return transport.NewError(transport.OpAct, transport.PhaseValidate, code, retry, transport.NotAttempted, "%s", fmt.Sprintf(format, args...))
}
