package worker

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker/outline"
)

// maskTargets are the elements a capture masks by node: every password field of every
// session (found by a DOM search, which also reaches closed shadow roots mask_collect.js
// cannot), the fields a secret was typed into, and what each redaction rule selects. Only a
// rule needs the accessibility tree (it matches by role, name or label): without rules the
// tree is not read, which is most of a plain screenshot's cost. A session whose fields could
// not be searched, or a rule that could not be checked against the whole page, counts in
// m.failed, so the proof cannot hold.
func (w *Worker) maskTargets(ctx context.Context, t *tab, rules []transport.RedactionRule, m *masking) (map[outline.NodeKey]bool, error) {
	targets := map[outline.NodeKey]bool{}
	if len(rules) == 0 {
		if err := passwordTargets(ctx, t, targets, m); err != nil {
			return nil, err
		}
	} else {
		frames, err := w.axFrames(ctx, t)
		if err != nil {
			return nil, err
		}
		for _, f := range frames {
			for _, b := range f.Passwords {
				targets[outline.NodeKey{Session: f.Session, Backend: b}] = true
			}
			if f.Partial {
				// A huge page was read in windows: a rule cannot be checked against the rest.
				m.failed++
			}
		}
		for _, rule := range rules {
			for _, el := range outline.Redactable(frames, rule.Role, rule.Name, rule.Label) {
				targets[el.Key()] = true
			}
		}
	}
	t.mu.Lock()
	for k := range t.secretNodes {
		targets[k] = true
	}
	t.mu.Unlock()
	return targets, nil
}

// passwordTargets adds the password fields of the tab's own session and of each of its
// out-of-process frames, one DOM search each (the same search axFrames makes). The tab's
// own session failing fails the capture, as reading its tree would; a frame's session
// failing fails the proof.
func passwordTargets(ctx context.Context, t *tab, targets map[outline.NodeKey]bool, m *masking) error {
	search := func(session string) error {
		c, err := t.client(session)
		if err != nil {
			return err
		}
		if err := requestDocument(ctx, c); err != nil {
			return err
		}
		// Past budgets.OutlineSearchResults the rest are left to mask_collect.js, as in
		// axFrames.
		found, err := passwordFields(ctx, c)
		if err != nil {
			return err
		}
		for _, b := range found {
			targets[outline.NodeKey{Session: session, Backend: b}] = true
		}
		return nil
	}
	if err := search(""); err != nil {
		return err
	}
	for _, f := range t.oopifs() {
		if err := search(f.id); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m.failed++
		}
	}
	return nil
}
