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

// pageTextBudgets: observe with small maxNodes, maxDepth and maxTextChars returns an
// outline within all three, with truncated set.
func pageTextBudgets(ctx context.Context, e *env) error {
	if _, err := e.navigate(ctx, "/read"); err != nil {
		return err
	}
	obs, err := transport.Dispatch(ctx, e.rt, transport.Observe{MaxNodes: budgetNodes, MaxDepth: budgetDepth, MaxTextChars: budgetChars})
	if err != nil {
		return fmt.Errorf("observe with budgets: %w", err)
	}
	var nodes, depth, chars int
	measure(obs.Nodes, &nodes, &depth, &chars)
	switch {
	case !obs.Truncated:
		return fmt.Errorf("observe {maxNodes:%d, maxDepth:%d, maxTextChars:%d} of /read is not truncated", budgetNodes, budgetDepth, budgetChars)
	case nodes > budgetNodes:
		return fmt.Errorf("%d nodes, over maxNodes %d", nodes, budgetNodes)
	case depth > budgetDepth:
		return fmt.Errorf("nesting %d, over maxDepth %d", depth, budgetDepth)
	case chars > budgetChars:
		return fmt.Errorf("%d characters of text, over maxTextChars %d", chars, budgetChars)
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

// loginPageClass: a page with a password field is classed login (the class a host's
// handoffClasses hands off on), and an ordinary page is not.
func loginPageClass(ctx context.Context, e *env) error {
	for _, p := range []struct{ path, class string }{{"/login", transport.PageLogin}, {"/about", transport.PageNormal}} {
		if _, err := e.navigate(ctx, p.path); err != nil {
			return err
		}
		obs, err := transport.Dispatch(ctx, e.rt, transport.Observe{})
		if err != nil {
			return fmt.Errorf("observe %s: %w", p.path, err)
		}
		if obs.PageClass != p.class {
			return fmt.Errorf("%s is classed %q, want %q", p.path, obs.PageClass, p.class)
		}
	}
	return nil
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
