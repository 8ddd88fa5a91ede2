package worker

import (
	"strconv"

	"github.com/mafredri/cdp/protocol/dom"

	"github.com/fastbrowser/fastbrowser/worker/outline"
)

// refTable binds outline refs to elements of one document of one tab. Refs are stable for
// the document's life: observing again reuses an element's ref, so a ref an agent holds never
// silently moves to another element. A new document starts a new table; a ref from the old
// one is stale_document.
type refTable struct {
	loader    string
	byBackend map[dom.BackendNodeID]string
	byRef     map[string]outline.Element
	next      int
}

// refsFor returns the tab's table for loader, starting a new one on a new document. Call with
// t.mu held.
func (t *tab) refsFor(loader string) *refTable {
	if t.refs == nil || t.refs.loader != loader {
		// Numbering continues across documents of the tab, so an old ref never names an
		// element of the new document by accident.
		next := 0
		if t.refs != nil {
			next = t.refs.next
		}
		t.refs = &refTable{loader: loader, byBackend: map[dom.BackendNodeID]string{}, byRef: map[string]outline.Element{}, next: next}
	}
	return t.refs
}

func (rt *refTable) refFor(b dom.BackendNodeID) string {
	if r, ok := rt.byBackend[b]; ok {
		return r
	}
	rt.next++
	r := "e" + strconv.Itoa(rt.next)
	rt.byBackend[b] = r
	return r
}

func (rt *refTable) remember(els []outline.Element) {
	for _, e := range els {
		rt.byRef[e.Ref] = e
	}
}
