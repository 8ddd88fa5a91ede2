package worker

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// refTable binds outline refs to elements of one document of one tab. Refs are stable for
// the document's life: observing again reuses an element's ref, so a ref an agent holds never
// silently moves to another element. A new document starts a new table.
//
// Ref numbers come from one counter for the whole worker (refSeq): a ref is issued once, for
// one element of one document of one tab. So a ref that is not in the table of the tab and
// document it is used on, but was issued, belongs to another tab or an earlier document: it
// is refused as stale_document, never resolved to whatever element holds that number here.
type refTable struct {
	loader string
	byKey  map[outline.NodeKey]string
	byRef  map[string]outline.Element
}

// refsFor returns the tab's table for loader, starting a new one on a new document. Call with
// t.mu held.
func (t *tab) refsFor(loader string) *refTable {
	if t.refs == nil || t.refs.loader != loader {
		t.refs = &refTable{loader: loader, byKey: map[outline.NodeKey]string{}, byRef: map[string]outline.Element{}}
	}
	return t.refs
}

// refFor returns the element's ref in this table, issuing the next number for a new one.
func (rt *refTable) refFor(k outline.NodeKey, seq *atomic.Int64) string {
	if r, ok := rt.byKey[k]; ok {
		return r
	}
	r := "e" + strconv.FormatInt(seq.Add(1), 10)
	rt.byKey[k] = r
	return r
}

func (rt *refTable) remember(els []outline.Element) {
	for _, e := range els {
		rt.byRef[e.Ref] = e
	}
}

// issued reports whether ref is one this worker handed out (to any tab or document).
func issued(ref string, seq *atomic.Int64) bool {
	n, ok := strings.CutPrefix(ref, "e")
	if !ok || n == "" || n[0] == '0' {
		return false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return err == nil && v >= 1 && v <= seq.Load()
}
