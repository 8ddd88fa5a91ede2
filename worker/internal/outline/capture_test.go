package outline_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/accessibility"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/input"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// tab is one page in its own browser context, reached over its own page websocket as the
// worker does.
type tab struct {
	c *cdp.Client
}

// openTab opens url in a fresh browser context and returns once its load event fired.
// Everything it made is closed when the test ends.
func openTab(tb testing.TB, rawURL string) *tab {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	browser := sharedBrowser(tb)
	bconn, err := rpcc.DialContext(ctx, browser.WebSocketURL())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = bconn.Close() })
	bc := cdp.NewClient(bconn)
	bctx, err := bc.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = bc.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(bctx.BrowserContextID))
	})
	tgt, err := bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		tb.Fatal(err)
	}
	pconn, err := browser.DialPage(ctx, tgt.TargetID)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = pconn.Close() })
	c := cdp.NewClient(pconn)
	if err := c.Page.Enable(ctx); err != nil {
		tb.Fatal(err)
	}
	loaded, err := c.Page.LoadEventFired(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer loaded.Close()
	if _, err := c.Page.Navigate(ctx, page.NewNavigateArgs(rawURL)); err != nil {
		tb.Fatal(err)
	}
	if _, err := loaded.Recv(); err != nil {
		tb.Fatalf("waiting for load of %s: %v", rawURL, err)
	}
	return &tab{c: c}
}

// frames fetches the AX tree of the main frame and of every same-process child frame, with
// each child's <iframe> owner, as the worker will.
func (t *tab) frames(tb testing.TB) []outline.Frame {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tree, err := t.c.Page.GetFrameTree(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	passwords := t.passwords(ctx, tb)
	var out []outline.Frame
	var walk func(ft page.FrameTree, main bool)
	walk = func(ft page.FrameTree, main bool) {
		ax, err := t.c.Accessibility.GetFullAXTree(ctx, accessibility.NewGetFullAXTreeArgs().SetFrameID(ft.Frame.ID))
		if err != nil {
			// An out-of-process frame is not served on this target; the worker skips it.
			tb.Logf("frame %s: %v", ft.Frame.URL, err)
			return
		}
		f := outline.Frame{Nodes: ax.Nodes, Passwords: passwords}
		if !main {
			owner, err := t.c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(ft.Frame.ID))
			if err != nil {
				tb.Fatalf("frame owner of %s: %v", ft.Frame.URL, err)
			}
			f.Owner = owner.BackendNodeID
		}
		out = append(out, f)
		for _, child := range ft.ChildFrames {
			walk(child, false)
		}
	}
	walk(tree.FrameTree, true)
	return out
}

// typeInto focuses the element and inserts text as a person's typing would.
func (t *tab) typeInto(tb testing.TB, backend dom.BackendNodeID, text string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := t.c.DOM.Focus(ctx, dom.NewFocusArgs().SetBackendNodeID(backend)); err != nil {
		tb.Fatal(err)
	}
	if err := t.c.Input.InsertText(ctx, input.NewInsertTextArgs(text)); err != nil {
		tb.Fatal(err)
	}
}

// passwords finds the page's password inputs in every same-process frame with one DOM
// search, as the worker should: the AX tree alone cannot tell an empty one from a textbox.
func (t *tab) passwords(ctx context.Context, tb testing.TB) []dom.BackendNodeID {
	tb.Helper()
	if _, err := t.c.DOM.GetDocument(ctx, dom.NewGetDocumentArgs().SetDepth(0)); err != nil {
		tb.Fatal(err)
	}
	s, err := t.c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs(`input[type="password" i]`))
	if err != nil {
		tb.Fatal(err)
	}
	defer t.c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID))
	if s.ResultCount == 0 {
		return nil
	}
	res, err := t.c.DOM.GetSearchResults(ctx, dom.NewGetSearchResultsArgs(s.SearchID, 0, s.ResultCount))
	if err != nil {
		tb.Fatal(err)
	}
	var out []dom.BackendNodeID
	for _, id := range res.NodeIDs {
		d, err := t.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(id))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, d.Node.BackendNodeID)
	}
	return out
}

// title is the document's title as the worker reads it.
func (t *tab) title(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := t.c.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("document.title").SetReturnByValue(true))
	if err != nil {
		tb.Fatal(err)
	}
	var s string
	_ = json.Unmarshal(r.Result.Value, &s)
	return s
}
