package sessions

import (
	"context"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"

	"github.com/fastbrowser/fastbrowser/transport"
)

// pageView is what the host last saw of the selected page: what a command prints as the
// page after it, and how many of its elements share each role+name (a by-ID target whose
// role+name is not unique may find another element on replay).
type pageView struct {
	Page
	refs  map[string]transport.OutlineNode // ref → its node, in this outline
	doc   string                           // the document's id ("" when it could not be read)
	names map[roleName]int                 // how many outline elements have each role+name
}

// refBook remembers every ref any outline of the session showed, with its element's role
// and name: a person may act on a ref from an outline older than the last one (the worker
// numbers refs afresh on each look and never reuses one), and export names it by role and
// name. Bounded: past budgets.SessionRefs it starts again from the latest outline.
type refBook map[string]roleName

func (b refBook) add(v pageView) refBook {
	if len(b)+len(v.refs) > budgets.SessionRefs {
		b = refBook{}
	}
	for ref, n := range v.refs {
		b[ref] = roleName{n.Role, n.Name}
	}
	return b
}

// resolve is the role and name of the element ref named when an outline showed it.
func (b refBook) resolve(ref string) (role, name string, ok bool) {
	rn, ok := b[ref]
	return rn.role, rn.name, ok
}

type roleName struct{ role, name string }

// settle looks at the page after an operation that may have changed it: until two looks
// in a row agree (URL, title, outline), within budgets.SessionSettle, so that a click that
// navigates is shown on the page it led to, not half-way. A page that never stops changing
// (a clock, an animation) is shown as the last look saw it.
func (h *Host) settle(ctx context.Context) pageView {
	v := h.look(ctx)
	deadline := time.Now().Add(budgets.SessionSettle)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return v
		case <-time.After(budgets.SessionSettlePoll):
		}
		next := h.look(ctx)
		if next.Error == nil && v.Error == nil && next.URL == v.URL && next.Title == v.Title && next.Outline == v.Outline {
			return next
		}
		// A page that cannot be read twice in a row for the same reason (no tab selected
		// after closeTab closed the selected one) is as settled as it gets: looking on
		// until the deadline would only delay the answer.
		if next.Error != nil && v.Error != nil && next.Error.Code == v.Error.Code && next.Error.Message == v.Error.Message {
			return next
		}
		v = next
	}
	return v
}

// look observes the selected tab. A page that cannot be read is a page with an error,
// never a failed command.
func (h *Host) look(ctx context.Context) pageView {
	v, _ := h.observe(ctx)
	return v
}

// observe is look that also gives the outline's nodes (nil when the page could not be read).
func (h *Host) observe(ctx context.Context) (pageView, []transport.OutlineNode) {
	ob, err := transport.Dispatch(ctx, h.rt, transport.Observe{})
	if err != nil {
		h.noteCrash(err)
		v := h.page // what was seen before is still the best knowledge of where it was
		v.Outline, v.Error = "", AsError(err)
		return v, nil
	}
	v := pageView{Page: Page{Tab: ob.Tab, URL: ob.URL, Title: ob.Title, PageClass: ob.PageClass, Truncated: ob.Truncated, Outline: ob.Text},
		refs: map[string]transport.OutlineNode{}, names: map[roleName]int{}, doc: ob.DocumentID}
	v.index(ob.Nodes)
	return v, ob.Nodes
}

func (v *pageView) index(nodes []transport.OutlineNode) {
	for _, n := range nodes {
		if n.Ref != "" {
			v.refs[n.Ref] = n
		}
		if n.Name != "" {
			v.names[roleName{n.Role, n.Name}]++
		}
		v.index(n.Children)
	}
}

// setPage records what the host now knows of the page.
func (h *Host) setPage(v pageView) {
	h.page = v
	if h.refs == nil {
		h.refs = refBook{}
	}
	h.refs = h.refs.add(v)
}
