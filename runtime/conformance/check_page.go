package conformance

import (
	"context"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/transport"
)

// The page_text budgets the check asks for: small enough that /read reaches them.
const (
	budgetNodes = 8
	budgetDepth = 2
	budgetChars = 60
)

// pageTextTask owns the session the page_text check opens with its own budgets.
const pageTextTask = "conformance-page-text"

// pageTextBudgets: a session opened with small pageText budgets answers a batch's page_text
// on /read with an outline within all three, truncated set. When the host's session config
// sets pageText, the main session (opened naming none) is held to the config's budgets too.
func pageTextBudgets(ctx context.Context, e *env) error {
	want := transport.PageTextBudgets{MaxNodes: budgetNodes, MaxDepth: budgetDepth, MaxTextChars: budgetChars}
	// No handoff classes, whatever the config's: /read has a password field (class login).
	s, err := e.openSession(ctx, pageTextTask, transport.OpenSession{PageText: &want, HandoffClasses: []string{}})
	if err != nil {
		return fmt.Errorf("open a session with pageText %+v: %w", want, err)
	}
	defer e.endTask(ctx, pageTextTask)
	if err := pageTextWithin(ctx, s, e.fixture, want, true); err != nil {
		return err
	}
	if e.cfg != nil && e.cfg.PageText != nil {
		if err := pageTextWithin(ctx, e.rt, e.fixture, *e.cfg.PageText, false); err != nil {
			return fmt.Errorf("with the session config's pageText: %w", err)
		}
	}
	return nil
}

// pageTextWithin runs [navigate /read, page_text] in s and checks the outline against want
// (a 0 field is not checked); mustTruncate: /read is known to be over want.
func pageTextWithin(ctx context.Context, s transport.Caller, fixture string, want transport.PageTextBudgets, mustTruncate bool) error {
	b, err := batch(ctx, s, navigateAction(fixture+"/read"), pageTextAction())
	if err != nil || b.Posture != transport.PostureOK {
		return fmt.Errorf("a batch [navigate /read, page_text]: %s", batchOutcome(b, err))
	}
	var obs transport.ObserveResult
	if err := resultOf(b.Actions[1], &obs); err != nil {
		return err
	}
	var nodes, depth, chars int
	measure(obs.Nodes, &nodes, &depth, &chars)
	switch {
	case mustTruncate && !obs.Truncated:
		return fmt.Errorf("page_text of /read under {maxNodes:%d, maxDepth:%d, maxTextChars:%d} is not truncated", want.MaxNodes, want.MaxDepth, want.MaxTextChars)
	case want.MaxNodes > 0 && nodes > want.MaxNodes:
		return fmt.Errorf("%d nodes, over maxNodes %d", nodes, want.MaxNodes)
	case want.MaxDepth > 0 && depth > want.MaxDepth:
		return fmt.Errorf("nesting %d, over maxDepth %d", depth, want.MaxDepth)
	case want.MaxTextChars > 0 && chars > want.MaxTextChars:
		return fmt.Errorf("%d characters of text, over maxTextChars %d", chars, want.MaxTextChars)
	}
	return nil
}

// measure counts nodes, the deepest level (top level 1) and the text characters the
// budget covers (names, texts, selected and option labels).
func measure(ns []transport.OutlineNode, nodes, depth, chars *int) {
	walk(ns, 1, func(n transport.OutlineNode, level int) bool {
		*nodes++
		*depth = max(*depth, level)
		*chars += utf8.RuneCountInString(n.Name) + utf8.RuneCountInString(n.Text) + utf8.RuneCountInString(n.Selected)
		for _, o := range n.Options {
			*chars += utf8.RuneCountInString(o)
		}
		return true
	})
}

// walk visits the outline in document order, each node with its level, until visit
// returns false; it reports whether the walk went to the end.
func walk(ns []transport.OutlineNode, level int, visit func(transport.OutlineNode, int) bool) bool {
	for _, n := range ns {
		if !visit(n, level) || !walk(n.Children, level+1, visit) {
			return false
		}
	}
	return true
}

// staleRefRefused: a ref observed before a navigation is refused after it (stale_document
// or element_not_found), and nothing was clicked: the tab is still on the same document.
func staleRefRefused(ctx context.Context, e *env) error {
	if _, err := e.navigate(ctx, "/form"); err != nil {
		return err
	}
	obs, err := transport.Dispatch(ctx, e.rt, transport.Observe{})
	if err != nil {
		return fmt.Errorf("observe /form: %w", err)
	}
	ref := refOf(obs.Nodes, "button", "Sign in")
	if ref == "" {
		return fmt.Errorf("/form has no \"Sign in\" button with a ref")
	}
	nav, err := e.navigate(ctx, "/form")
	if err != nil {
		return err
	}
	_, err = transport.Dispatch(ctx, e.rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: ref}})
	if c := codeOf(err); c != transport.CodeStaleDocument && c != transport.CodeElementNotFound {
		return fmt.Errorf("click with a ref from the previous document: got %s, want %s", outcome("", err), transport.CodeStaleDocument)
	}
	rd, err := transport.Dispatch(ctx, e.rt, transport.Read{})
	if err != nil {
		return fmt.Errorf("read after the refused click: %w", err)
	}
	if u, _ := url.Parse(rd.URL); u == nil || u.Path != "/form" || rd.DocumentID != nav.DocumentID {
		return fmt.Errorf("the refused click changed the page: now %s (document %s, was %s)", rd.URL, rd.DocumentID, nav.DocumentID)
	}
	return nil
}

// refOf is the ref of the first actionable node with role and name ("" when none).
func refOf(ns []transport.OutlineNode, role, name string) (ref string) {
	walk(ns, 1, func(n transport.OutlineNode, _ int) bool {
		if n.Role == role && n.Name == name && n.Ref != "" {
			ref = n.Ref
		}
		return ref == ""
	})
	return ref
}
