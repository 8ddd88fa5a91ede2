package worker

import (
	"context"
	"errors"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/dom"
	"github.com/mafredri/cdp/protocol/page"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
)

// maskSession is one CDP session of a tab: its own ("") or an out-of-process frame's.
type maskSession struct {
	id string
	c  *cdp.Client
}

// frameOwner is an element holding a frame (<iframe>, <frame>, <object>, <embed>).
type frameOwner struct {
	c       *cdp.Client
	backend dom.BackendNodeID
	frame   page.FrameID
}

// sessionScan is what one session's DOM searches found: its password fields (when asked)
// and its frame owners.
type sessionScan struct {
	passwords []dom.BackendNodeID
	owners    []frameOwner
}

var errTooManyOwners = errors.New("more frame owners than one search returns")

// findMasks puts in m every rect the capture masks, in every frame of the tab:
//   - by node: every password field of every session (a DOM search, which also reaches
//     closed shadow roots mask_collect.js cannot), the fields a secret was typed into, and
//     what each redaction rule selects;
//   - by script (mask_collect.js, in every frame): password fields, fields holding a typed
//     secret and echoed secret text;
//
// and counts the frames on the page no session reaches. Only a rule needs the accessibility
// tree (it matches by role, name or label): without rules the tree is not read, which was
// most of a plain screenshot's cost. It answers how many elements there were when past
// budgets.MaskTargets (nothing is placed then).
func (w *Worker) findMasks(ctx context.Context, t *tab, rules []transport.RedactionRule, m *masking) (int, error) {
	var frames []outline.Frame
	if len(rules) > 0 {
		var err error
		if frames, err = w.axFrames(ctx, t); err != nil {
			return 0, err
		}
		for _, f := range frames {
			if f.Partial {
				// A huge page was read in windows: a rule cannot be checked against the rest.
				m.fail()
				break
			}
		}
	}
	sessions := []maskSession{{"", t.c}}
	for _, f := range t.oopifs() {
		sessions = append(sessions, maskSession{f.id, f.c})
	}
	secrets := w.typedSecrets()
	var reached map[page.FrameID]bool
	var collecting sync.WaitGroup
	collecting.Go(func() { reached = m.collectDocuments(ctx, sessions, secrets) })
	scans, err := m.scanSessions(ctx, sessions, len(rules) == 0)
	if err != nil {
		collecting.Wait()
		return 0, err
	}
	targets := map[outline.NodeKey]bool{}
	for i, s := range scans {
		for _, b := range s.passwords {
			targets[outline.NodeKey{Session: sessions[i].id, Backend: b}] = true
		}
	}
	for _, f := range frames {
		for _, b := range f.Passwords {
			targets[outline.NodeKey{Session: f.Session, Backend: b}] = true
		}
	}
	for _, rule := range rules {
		for _, el := range outline.Redactable(frames, rule.Role, rule.Name, rule.Label) {
			targets[el.Key()] = true
		}
	}
	t.mu.Lock()
	for k := range t.secretNodes {
		targets[k] = true
	}
	t.mu.Unlock()
	if len(targets) > budgets.MaskTargets {
		collecting.Wait()
		return len(targets), nil
	}
	keys := make([]outline.NodeKey, 0, len(targets))
	for k := range targets {
		keys = append(keys, k)
	}
	sideBySide(len(keys), func(i int) { m.placeNode(ctx, keys[i]) })
	collecting.Wait()
	var owners []frameOwner
	for _, s := range scans {
		owners = append(owners, s.owners...)
	}
	m.countUnreached(ctx, owners, reached)
	return 0, nil
}

// scanSessions searches every session's DOM, side by side: for password fields when
// passwords (with rules, axFrames found them already), and for frame owners. The tab's own
// session failing its password search fails the capture, as reading its tree would; any
// other search failing fails the proof.
func (m *masking) scanSessions(ctx context.Context, sessions []maskSession, passwords bool) ([]sessionScan, error) {
	scans := make([]sessionScan, len(sessions))
	pwErrs := make([]error, len(sessions))
	ownerErrs := make([]error, len(sessions))
	sideBySide(len(sessions), func(i int) {
		scans[i], pwErrs[i], ownerErrs[i] = scanSession(ctx, sessions[i].c, passwords)
	})
	if pwErrs[0] != nil {
		return nil, pwErrs[0]
	}
	for i := range sessions {
		if pwErrs[i] != nil || ownerErrs[i] != nil {
			m.fail()
		}
	}
	return scans, nil
}

// scanSession takes the session's document once (each DOM.getDocument drops the node ids
// the previous one gave out) and runs both searches on it side by side.
func scanSession(ctx context.Context, c *cdp.Client, passwords bool) (out sessionScan, pwErr, ownerErr error) {
	if err := requestDocument(ctx, c); err != nil {
		return out, err, err
	}
	var pw sync.WaitGroup
	if passwords {
		pw.Go(func() {
			// Past budgets.OutlineSearchResults the rest are left to mask_collect.js, as
			// in axFrames.
			var nodes []*dom.Node
			nodes, _, pwErr = describedSearch(ctx, c, `input[type="password" i]`)
			for _, n := range nodes {
				out.passwords = append(out.passwords, n.BackendNodeID)
			}
		})
	}
	nodes, all, err := describedSearch(ctx, c, "iframe, frame, object, embed")
	if err == nil && !all {
		err = errTooManyOwners
	}
	ownerErr = err
	for _, n := range nodes {
		if n.FrameID != nil {
			out.owners = append(out.owners, frameOwner{c, n.BackendNodeID, *n.FrameID})
		}
	}
	pw.Wait()
	return out, pwErr, ownerErr
}

// describedSearch is searchNodes for a capture: the matches come described, the
// descriptions are asked side by side and the search is discarded alongside them.
func describedSearch(ctx context.Context, c *cdp.Client, selector string) (nodes []*dom.Node, all bool, err error) {
	s, err := c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs(selector))
	if err != nil {
		return nil, false, err
	}
	discard := func() { _ = c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID)) }
	if s.ResultCount == 0 {
		discard()
		return nil, true, nil
	}
	// Bounded: a page of 50 000 matches would otherwise cost as many calls.
	res, err := c.DOM.GetSearchResults(ctx, dom.NewGetSearchResultsArgs(s.SearchID, 0, min(s.ResultCount, budgets.OutlineSearchResults)))
	var discarding sync.WaitGroup
	discarding.Go(discard)
	defer discarding.Wait()
	if err != nil {
		return nil, false, err
	}
	nodes = make([]*dom.Node, len(res.NodeIDs))
	errs := make([]error, len(res.NodeIDs))
	sideBySide(len(res.NodeIDs), func(i int) {
		d, err := c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(res.NodeIDs[i]))
		if errs[i] = err; err == nil {
			nodes[i] = &d.Node
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, false, err
	}
	return nodes, len(nodes) == s.ResultCount, nil
}
