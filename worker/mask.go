package worker

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"golang.org/x/sync/errgroup"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

//go:embed mask_collect.js
var maskCollectFn string

//go:embed mask_draw.js
var maskDrawFn string

const unmaskFn = `function () { for (const e of document.querySelectorAll('[data-fastbrowser-mask]')) e.remove(); }`

// budgets.MaskTargets bounds the elements one capture resolves for masking, and
// budgets.MaskItems everything it masks (elements, echoed text runs); past either the
// redaction is not proven (nothing is guessed).

// rect is [x, y, width, height] in CSS pixels.
type rect [4]float64

// screenshot masks everything the redaction rules select in every frame of the tab, measures
// what still shows, and captures the viewport only when nothing does. The masks are removed
// afterwards. Masking fails closed: a frame that could not be inspected, a match that could
// not be placed, or a rule that could not be applied leaves the proof not proven.
// Finding the masks takes many CDP calls that do not depend on each other (each session's
// searches, each frame's script, each element's boxes): they run side by side, so the
// capture waits for the longest chain of calls, not for their sum.
func (w *Worker) screenshot(ctx context.Context, t *tab, rules []transport.RedactionRule) (*transport.RedactionProof, []byte, error) {
	proof := &transport.RedactionProof{Rules: []string{"password", "secret-field", "secret-text"}}
	// A background tab can stall a capture in headless mode: bring it to the front, while
	// the masks are found (the draw waits for it).
	activated := make(chan error, 1)
	go func() { activated <- w.bc.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(t.id)) }()
	for _, rule := range rules {
		proof.Rules = append(proof.Rules, ruleName(rule))
	}
	m := &masking{t: t}
	tooMany, err := w.findMasks(ctx, t, rules, m)
	if err != nil {
		return proof, nil, err
	}
	if tooMany > 0 {
		proof.Matched, proof.Unmasked = tooMany, tooMany
		return proof, nil, nil
	}
	if ctx.Err() != nil {
		return proof, nil, ctx.Err()
	}
	proof.FramesUninspected = m.uninspected
	if len(m.items) > budgets.MaskItems {
		proof.Matched, proof.Unmasked = len(m.items), len(m.items)
		return proof, nil, nil
	}
	if err := <-activated; err != nil {
		return proof, nil, err
	}
	world, err := t.isolatedWorld(ctx)
	if err != nil {
		return proof, nil, err
	}
	defer func() {
		// The page is left as it was, even when the capture ran out of time.
		cctx, cancel := w.callContext()
		defer cancel()
		_, _ = t.c.Runtime.CallFunctionOn(cctx, cdpruntime.NewCallFunctionOnArgs(unmaskFn).SetExecutionContextID(world).SetSilent(true))
	}()
	items := m.items
	if items == nil {
		items = [][]rect{}
	}
	reply, err := t.c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(maskDrawFn).SetExecutionContextID(world).
		SetArguments([]cdpruntime.CallArgument{{Value: mustJSON(items)}}).SetReturnByValue(true).SetSilent(true))
	if err != nil {
		return proof, nil, err
	}
	if reply.ExceptionDetails != nil {
		return proof, nil, errScript
	}
	var measured struct {
		Matched  int `json:"matched"`
		Unmasked int `json:"unmasked"`
	}
	if err := json.Unmarshal(reply.Result.Value, &measured); err != nil {
		return proof, nil, err
	}
	proof.Matched, proof.Unmasked = measured.Matched, measured.Unmasked
	proof.Masked = measured.Matched - measured.Unmasked
	proof.Proven = m.applied() && measured.Unmasked == 0
	if !proof.Proven {
		return proof, nil, nil
	}
	shot, err := t.c.Page.CaptureScreenshot(ctx, page.NewCaptureScreenshotArgs().SetFormat("png"))
	if err != nil {
		return proof, nil, err
	}
	return proof, shot.Data, nil
}

// masking gathers, across every frame of a tab, the rects to mask in the tab's viewport.
// The calls that find them run side by side: mu guards everything below it.
type masking struct {
	t *tab

	mu          sync.Mutex
	items       [][]rect         // one entry per match; nil: a match that could not be placed
	failed      int              // rules or documents that could not be applied or read
	uninspected int              // frames on the page that no session could read
	offsets     map[string]point // each session's offset in the tab's viewport, once read
}

// applied says whether every rule and document was applied; read once the calls are done.
func (m *masking) applied() bool { return m.failed == 0 && m.uninspected == 0 }

func (m *masking) fail() {
	m.mu.Lock()
	m.failed++
	m.mu.Unlock()
}

func (m *masking) add(rs []rect) {
	m.mu.Lock()
	m.items = append(m.items, rs)
	m.mu.Unlock()
}

// offset is t.offset, read once per session for the whole capture: each read costs two CDP
// calls per frame level, and a frame may hold hundreds of matches. Two calls asking at once
// may both read it; both get the same answer.
func (m *masking) offset(ctx context.Context, session string) (point, error) {
	m.mu.Lock()
	off, ok := m.offsets[session]
	m.mu.Unlock()
	if ok {
		return off, nil
	}
	off, err := m.t.offset(ctx, session)
	if err != nil {
		return point{}, err
	}
	m.mu.Lock()
	if m.offsets == nil {
		m.offsets = map[string]point{}
	}
	m.offsets[session] = off
	m.mu.Unlock()
	return off, nil
}

// sideBySide runs f(0) … f(n-1), at most budgets.MaskCallsInFlight at a time, and returns
// when all have. The bound is per call: a search that fans out inside f multiplies it.
func sideBySide(n int, f func(i int)) {
	if n == 1 {
		f(0)
		return
	}
	var g errgroup.Group
	g.SetLimit(budgets.MaskCallsInFlight)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	_ = g.Wait() // f reports nothing: each call keeps its own outcome
}

// placement is where one element shows, or why that cannot be told.
type placement struct {
	rs     []rect // its boxes in the tab's viewport; none: it shows nothing
	lost   bool   // its frame's place is unknown: a match that could not be placed
	failed bool   // it could not be looked at: the proof cannot hold
}

// boxes places one element of a session. A node gone from the document, or without a box
// (display:none), shows nothing; anything else that stops it being placed fails the proof.
func (m *masking) boxes(ctx context.Context, session string, c *cdp.Client, node *dom.GetContentQuadsArgs) placement {
	q, err := c.DOM.GetContentQuads(ctx, node)
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "No node") || strings.Contains(msg, "Could not compute content quads") {
			return placement{}
		}
		return placement{failed: true}
	}
	off, err := m.offset(ctx, session)
	if err != nil {
		return placement{lost: true}
	}
	rs := make([]rect, 0, len(q.Quads))
	for _, quad := range q.Quads {
		if r, ok := boundsOf(quad, off); ok {
			rs = append(rs, r)
		}
	}
	return placement{rs: rs}
}

// keep adds a placement to the masks, or to the proof's failures.
func (m *masking) keep(p placement) {
	switch {
	case p.failed:
		m.fail()
	case p.lost:
		m.add(nil)
	case len(p.rs) > 0:
		m.add(p.rs)
	}
}

// placeNode adds one element's boxes.
func (m *masking) placeNode(ctx context.Context, k outline.NodeKey) {
	c, err := m.t.client(k.Session)
	if err != nil {
		m.fail()
		return
	}
	m.keep(m.boxes(ctx, k.Session, c, dom.NewGetContentQuadsArgs().SetBackendNodeID(k.Backend)))
}

// boundsOf is the bounding rect of a content quad, moved by off.
func boundsOf(quad dom.Quad, off point) (rect, bool) {
	if len(quad) != 8 {
		return rect{}, false
	}
	minX, minY, maxX, maxY := quad[0], quad[1], quad[0], quad[1]
	for i := 2; i < 8; i += 2 {
		minX, maxX = min(minX, quad[i]), max(maxX, quad[i])
		minY, maxY = min(minY, quad[i+1]), max(maxY, quad[i+1])
	}
	if maxX <= minX || maxY <= minY {
		return rect{}, false
	}
	return rect{minX + off.x, minY + off.y, maxX - minX, maxY - minY}, true
}

func ruleName(r transport.RedactionRule) string {
	var parts []string
	for _, f := range []struct{ k, v string }{{"role", r.Role}, {"name", r.Name}, {"label", r.Label}} {
		if f.v != "" {
			parts = append(parts, f.k+"="+f.v)
		}
	}
	return strings.Join(parts, ",")
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
