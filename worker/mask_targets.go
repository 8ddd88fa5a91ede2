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
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
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

// sessionScan is what one session's DOM searches found: its password fields (when asked),
// placed, and its frame owners.
type sessionScan struct {
	passwords []passwordField
	owners    []frameOwner
}

// passwordField is a password field a DOM search found, and where it shows.
type passwordField struct {
	backend dom.BackendNodeID
	at      placement
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
// budgets.MaskTargets.
func (w *Worker) findMasks(ctx context.Context, t *tab, rules []transport.RedactionRule, m *masking) (int, error) {
	byNode := map[outline.NodeKey]bool{}
	if len(rules) > 0 {
		frames, err := w.axFrames(ctx, t)
		if err != nil {
			return 0, err
		}
		for _, f := range frames {
			if f.Partial {
				// A huge page was read in windows: a rule cannot be checked against the rest.
				m.fail()
				break
			}
		}
		for _, f := range frames {
			for _, b := range f.Passwords {
				byNode[outline.NodeKey{Session: f.Session, Backend: b}] = true
			}
		}
		for _, rule := range rules {
			for _, el := range outline.Redactable(frames, rule.Role, rule.Name, rule.Label) {
				byNode[el.Key()] = true
			}
		}
	}
	t.mu.Lock()
	for k := range t.secretNodes {
		byNode[k] = true
	}
	t.mu.Unlock()
	if len(byNode) > budgets.MaskTargets {
		return len(byNode), nil
	}
	sessions := []maskSession{{"", t.c}}
	for _, f := range t.oopifs() {
		sessions = append(sessions, maskSession{f.id, f.c})
	}
	secrets := w.typedSecrets()
	var reached map[page.FrameID]bool
	var side sync.WaitGroup
	side.Go(func() { reached = m.collectDocuments(ctx, sessions, secrets) })
	side.Go(func() {
		keys := make([]outline.NodeKey, 0, len(byNode))
		for k := range byNode {
			keys = append(keys, k)
		}
		sideBySide(len(keys), func(i int) { m.placeNode(ctx, keys[i]) })
	})
	scans, err := m.scanSessions(ctx, sessions, len(rules) == 0)
	side.Wait()
	if err != nil {
		return 0, err
	}
	// The search's password fields not already placed by node (typed into, or found by
	// axFrames).
	targets := len(byNode)
	var owners []frameOwner
	var more []placement
	for i, s := range scans {
		for _, p := range s.passwords {
			if !byNode[outline.NodeKey{Session: sessions[i].id, Backend: p.backend}] {
				targets++
				more = append(more, p.at)
			}
		}
		owners = append(owners, s.owners...)
	}
	if targets > budgets.MaskTargets {
		return targets, nil
	}
	for _, p := range more {
		m.keep(p)
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
		scans[i], pwErrs[i], ownerErrs[i] = m.scanSession(ctx, sessions[i], passwords)
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
// the previous one gave out) and runs both searches on it side by side. A password field
// is placed alongside being told which element it is: one call less on the capture's
// longest chain of calls.
func (m *masking) scanSession(ctx context.Context, s maskSession, passwords bool) (out sessionScan, pwErr, ownerErr error) {
	if err := requestDocument(ctx, s.c); err != nil {
		return out, err, err
	}
	var pw sync.WaitGroup
	if passwords {
		pw.Go(func() {
			var mu sync.Mutex
			// Past budgets.OutlineSearchResults the rest are left to mask_collect.js, as
			// in axFrames.
			_, pwErr = search(ctx, s.c, `input[type="password" i]`, func(id dom.NodeID) error {
				var at placement
				var placing sync.WaitGroup
				placing.Go(func() { at = m.boxes(ctx, s.id, s.c, dom.NewGetContentQuadsArgs().SetNodeID(id)) })
				d, err := s.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(id))
				placing.Wait()
				if err != nil {
					return err
				}
				mu.Lock()
				out.passwords = append(out.passwords, passwordField{d.Node.BackendNodeID, at})
				mu.Unlock()
				return nil
			})
		})
	}
	var mu sync.Mutex
	all, err := search(ctx, s.c, "iframe, frame, object, embed", func(id dom.NodeID) error {
		d, err := s.c.DOM.DescribeNode(ctx, dom.NewDescribeNodeArgs().SetNodeID(id))
		if err != nil {
			return err
		}
		if d.Node.FrameID != nil {
			mu.Lock()
			out.owners = append(out.owners, frameOwner{s.c, d.Node.BackendNodeID, *d.Node.FrameID})
			mu.Unlock()
		}
		return nil
	})
	if err == nil && !all {
		err = errTooManyOwners
	}
	ownerErr = err
	pw.Wait()
	return out, pwErr, ownerErr
}

// search is searchNodes for a capture: each runs on every match (at most
// budgets.OutlineSearchResults), side by side, and the search is discarded alongside. all
// says whether that was every match.
func search(ctx context.Context, c *cdp.Client, selector string, each func(dom.NodeID) error) (all bool, err error) {
	s, err := c.DOM.PerformSearch(ctx, dom.NewPerformSearchArgs(selector))
	if err != nil {
		return false, err
	}
	discard := func() { _ = c.DOM.DiscardSearchResults(ctx, dom.NewDiscardSearchResultsArgs(s.SearchID)) }
	if s.ResultCount == 0 {
		discard()
		return true, nil
	}
	// Bounded: a page of 50 000 matches would otherwise cost as many calls.
	res, err := c.DOM.GetSearchResults(ctx, dom.NewGetSearchResultsArgs(s.SearchID, 0, min(s.ResultCount, budgets.OutlineSearchResults)))
	var discarding sync.WaitGroup
	discarding.Go(discard)
	defer discarding.Wait()
	if err != nil {
		return false, err
	}
	errs := make([]error, len(res.NodeIDs))
	sideBySide(len(res.NodeIDs), func(i int) { errs[i] = each(res.NodeIDs[i]) })
	if err := errors.Join(errs...); err != nil {
		return false, err
	}
	return len(res.NodeIDs) == s.ResultCount, nil
}
