package worker

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
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
func (w *Worker) screenshot(ctx context.Context, t *tab, rules []transport.RedactionRule) (*transport.RedactionProof, []byte, error) {
	proof := &transport.RedactionProof{Rules: []string{"password", "secret-field", "secret-text"}}
	// A background tab can stall a capture in headless mode: bring it to the front, while
	// the masks are found (the draw waits for it).
	activated := make(chan error, 1)
	go func() { activated <- w.bc.Target.ActivateTarget(ctx, target.NewActivateTargetArgs(t.id)) }()
	m := &masking{t: t}
	for _, rule := range rules {
		proof.Rules = append(proof.Rules, ruleName(rule))
	}
	targets, err := w.maskTargets(ctx, t, rules, m)
	if err != nil {
		return proof, nil, err
	}
	if len(targets) > budgets.MaskTargets {
		proof.Matched, proof.Unmasked = len(targets), len(targets)
		return proof, nil, nil
	}
	for k := range targets {
		m.placeNode(ctx, k)
	}
	m.collectDocuments(ctx, w.typedSecrets())
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
		cctx, cancel := context.WithTimeout(context.Background(), budgets.CDPCall().Default)
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
type masking struct {
	t           *tab
	items       [][]rect         // one entry per match; nil: a match that could not be placed
	failed      int              // rules or documents that could not be applied or read
	uninspected int              // frames on the page that no session could read
	offsets     map[string]point // each session's offset in the tab's viewport, once read
}

func (m *masking) applied() bool { return m.failed == 0 && m.uninspected == 0 }

// offset is t.offset, read once per session for the whole capture: each read costs two CDP
// calls per frame level, and a frame may hold hundreds of matches.
func (m *masking) offset(ctx context.Context, session string) (point, error) {
	if off, ok := m.offsets[session]; ok {
		return off, nil
	}
	off, err := m.t.offset(ctx, session)
	if err != nil {
		return point{}, err
	}
	if m.offsets == nil {
		m.offsets = map[string]point{}
	}
	m.offsets[session] = off
	return off, nil
}

// placeNode adds one element's boxes. A node gone from the document, or without a box
// (display:none), shows nothing; anything else that stops it being placed fails the proof.
func (m *masking) placeNode(ctx context.Context, k outline.NodeKey) {
	c, err := m.t.client(k.Session)
	if err != nil {
		m.failed++
		return
	}
	q, err := c.DOM.GetContentQuads(ctx, dom.NewGetContentQuadsArgs().SetBackendNodeID(k.Backend))
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "No node") || strings.Contains(msg, "Could not compute content quads") {
			return
		}
		m.failed++
		return
	}
	off, err := m.offset(ctx, k.Session)
	if err != nil {
		m.items = append(m.items, nil)
		return
	}
	rs := make([]rect, 0, len(q.Quads))
	for _, quad := range q.Quads {
		if r, ok := boundsOf(quad, off); ok {
			rs = append(rs, r)
		}
	}
	if len(rs) > 0 {
		m.items = append(m.items, rs)
	}
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

// collectDocuments runs mask_collect.js in every frame of every session of the tab, and
// counts the frames on the page that no session reaches.
func (m *masking) collectDocuments(ctx context.Context, secrets []string) {
	type session struct {
		id string
		c  *cdp.Client
	}
	sessions := []session{{"", m.t.c}}
	reached := map[page.FrameID]bool{}
	for _, f := range m.t.oopifs() {
		sessions = append(sessions, session{f.id, f.c})
		reached[page.FrameID(f.id)] = true
	}
	for _, s := range sessions {
		tree, err := s.c.Page.GetFrameTree(ctx)
		if err != nil {
			m.failed++
			continue
		}
		base, err := m.offset(ctx, s.id)
		if err != nil {
			m.failed++
			continue
		}
		var walk func(ft page.FrameTree, root bool)
		walk = func(ft page.FrameTree, root bool) {
			reached[ft.Frame.ID] = true
			m.collectFrame(ctx, s.id, s.c, ft.Frame.ID, root, base, secrets)
			for _, child := range ft.ChildFrames {
				walk(child, false)
			}
		}
		walk(tree.FrameTree, true)
	}
	for _, s := range sessions {
		m.countUnreached(ctx, s.c, reached)
	}
}

// collectFrame adds one frame's password fields, secret-holding fields and echoed secret
// text, moved from the frame's viewport into the tab's.
func (m *masking) collectFrame(ctx context.Context, session string, c *cdp.Client, frame page.FrameID, root bool, base point, secrets []string) {
	var world cdpruntime.ExecutionContextID
	off := base
	var err error
	if root {
		world, err = m.t.worldIn(ctx, session)
	} else {
		var owner *dom.GetFrameOwnerReply
		if owner, err = c.DOM.GetFrameOwner(ctx, dom.NewGetFrameOwnerArgs(frame)); err == nil {
			var box *dom.GetBoxModelReply
			if box, err = c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(owner.BackendNodeID)); err != nil {
				// A frame whose <iframe> has no box (display:none) shows nothing.
				return
			}
			// A same-process frame's boxes are in its session's viewport already; its
			// own script's rects are in its own viewport, which starts at the content box.
			off = point{box.Model.Content[0], box.Model.Content[1]}
			var w *page.CreateIsolatedWorldReply
			if w, err = c.Page.CreateIsolatedWorld(ctx, page.NewCreateIsolatedWorldArgs(frame).SetWorldName(worldName)); err == nil {
				world = w.ExecutionContextID
			}
		}
	}
	if err != nil {
		m.failed++
		return
	}
	reply, err := c.Runtime.CallFunctionOn(ctx, cdpruntime.NewCallFunctionOnArgs(maskCollectFn).SetExecutionContextID(world).
		SetArguments([]cdpruntime.CallArgument{{Value: mustJSON(secrets)}}).SetReturnByValue(true).SetSilent(true))
	if err != nil && root && staleContext(err) {
		m.t.forgetWorldIn(session)
	}
	if err != nil || reply.ExceptionDetails != nil {
		m.failed++
		return
	}
	var found struct {
		Items     [][]rect `json:"items"`
		Truncated bool     `json:"truncated"`
	}
	if err := json.Unmarshal(reply.Result.Value, &found); err != nil || found.Truncated {
		m.failed++
		return
	}
	for _, rs := range found.Items {
		if len(rs) == 0 {
			continue // no box: nothing of it shows
		}
		for i := range rs {
			rs[i][0] += off.x
			rs[i][1] += off.y
		}
		m.items = append(m.items, rs)
	}
}

// countUnreached counts frame owners of a session (<iframe>, <frame>, <object>, <embed>) that
// hold a frame no session reached and have a box on the page: something shows there that
// nothing inspected, so the proof cannot hold.
func (m *masking) countUnreached(ctx context.Context, c *cdp.Client, reached map[page.FrameID]bool) {
	if err := requestDocument(ctx, c); err != nil {
		m.failed++
		return
	}
	owners, all, err := searchNodes(ctx, c, "iframe, frame, object, embed")
	if err != nil || !all {
		m.failed++
		return
	}
	for _, b := range owners {
		d, err := c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetBackendNodeID(b))
		if err != nil {
			m.failed++
			continue
		}
		if d.Node.FrameID == nil || reached[*d.Node.FrameID] {
			continue
		}
		if box, err := c.DOM.GetBoxModel(ctx, dom.NewGetBoxModelArgs().SetBackendNodeID(b)); err == nil && box.Model.Width > 0 && box.Model.Height > 0 {
			m.uninspected++
		}
	}
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
