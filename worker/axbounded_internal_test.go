package worker

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestBoundedReadMatchesFullTree: a page read in windows (forced here on /big by lowering
// the full-tree limit) outlines like the whole tree, node for node; only the truncation mark
// differs. The windows link up through the nodes' own child ids.
func TestBoundedReadMatchesFullTree(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	ctx, w, _ := workerOn(t, site.URL+"/big")
	// One window holding the whole page, then windows of 300 elements: shells down to the
	// sections, whole sections under them.
	for _, window := range []int{budgets.OutlineWindowElements, 300} {
		full, err := w.run(ctx, &transport.Observe{MaxNodes: 120}, w.base)
		if err != nil {
			t.Fatal(err)
		}
		fullTreeElements, windowElements = 50, window
		windowed, err := w.run(ctx, &transport.Observe{MaxNodes: 120}, w.base)
		fullTreeElements, windowElements = budgets.OutlineFullTreeElements, budgets.OutlineWindowElements
		if err != nil {
			t.Fatal(err)
		}
		f, b := full.(*transport.ObserveResult), windowed.(*transport.ObserveResult)
		if !b.Truncated {
			t.Errorf("window %d: a windowed read is not marked truncated", window)
		}
		if f.Text != b.Text || len(f.Nodes) != len(b.Nodes) {
			t.Errorf("window %d: windowed outline differs from the full one:\n%s\nfull:\n%s", window, b.Text, f.Text)
		}
	}
}
