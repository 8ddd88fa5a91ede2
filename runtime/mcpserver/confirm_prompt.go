package mcpserver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// promptTextBytes bounds each name or text a prompt quotes.
const promptTextBytes = 80

// prompt is the question a --confirm-mutations prompt asks: the action and the element it
// acts on (the role and name an outline gave a ref, or the locator's own words), a
// navigation's origin (never its path or query). Never the text a type or fill enters, an
// option, a key or a file: those may be secret, and the user confirms what is acted on.
// Names from the page are quoted (strconv.Quote), so a name cannot lay out a prompt of its own.
func (s *Server) prompt(op transport.Operation, c call) string {
	return fmt.Sprintf("fastbrowser: allow %s in browser session %s?", s.describe(op, c.session), c.session)
}

func (s *Server) describe(op transport.Operation, session string) string {
	switch o := op.(type) {
	case *transport.Act:
		return s.describeAct(o, session)
	case *transport.Download:
		return fmt.Sprintf("a click on %s%s that downloads a file", s.target(o.Target, session), inTab(o.Tab))
	case *transport.Navigate:
		return fmt.Sprintf("loading a page of %s%s", originOf(o.URL), inTab(o.Tab))
	case *transport.GoBack:
		return "going back in the history" + inTab(o.Tab)
	case *transport.GoForward:
		return "going forward in the history" + inTab(o.Tab)
	case *transport.Reload:
		return "reloading the page" + inTab(o.Tab)
	case *transport.CloseTab:
		return "closing tab " + strconv.Quote(textclip.Clip(o.Tab, promptTextBytes))
	case *transport.CloseSession:
		return "closing the session"
	}
	return "the operation " + op.OpName()
}

func (s *Server) describeAct(a *transport.Act, session string) string {
	on := s.target(a.Target, session)
	if a.Target == (transport.Target{}) {
		on = "the focused element"
	}
	switch {
	case a.Text != nil && a.Text.EnvName() != "":
		return fmt.Sprintf("typing the secret %s (its value is not shown) into %s%s", a.Text.EnvName(), on, inTab(a.Tab))
	case a.Action == transport.ActType || a.Action == transport.ActFill:
		return fmt.Sprintf("%s into %s (the text is not shown)%s", a.Action, on, inTab(a.Tab))
	case a.Action == transport.ActDragTo && a.To != nil:
		return fmt.Sprintf("dragTo of %s onto %s%s", on, s.target(*a.To, session), inTab(a.Tab))
	}
	return fmt.Sprintf("%s on %s%s", a.Action, on, inTab(a.Tab))
}

// target names an element: a ref by what the session's outline said it is, a locator by its
// own parts.
func (s *Server) target(t transport.Target, session string) string {
	if t.Ref != "" {
		if e, ok := s.confirms.element(session, t.Ref); ok {
			if e.name == "" {
				return fmt.Sprintf("%s (ref %s)", e.role, t.Ref)
			}
			return fmt.Sprintf("%s %s (ref %s)", e.role, strconv.Quote(e.name), t.Ref)
		}
		return fmt.Sprintf("element %s (a ref no browser_observe of this session returned)", strconv.Quote(textclip.Clip(t.Ref, promptTextBytes)))
	}
	parts := []string{"element"}
	if t.Role != "" {
		parts[0] = strconv.Quote(textclip.Clip(t.Role, promptTextBytes))
		if !strings.ContainsAny(t.Role, " \"\\") {
			parts[0] = t.Role
		}
	}
	add := func(what string, m *transport.TextMatch) {
		if m != nil {
			parts = append(parts, strings.TrimSpace(what+" "+match(m)))
		}
	}
	add("", t.Name)
	add("with text", t.Text)
	add("labelled", t.Label)
	add("with placeholder", t.Placeholder)
	add("with alt text", t.AltText)
	add("titled", t.Title)
	if t.TestID != "" {
		parts = append(parts, "with test id "+strconv.Quote(textclip.Clip(t.TestID, promptTextBytes)))
	}
	add("holding text", t.HasText)
	if t.Within != nil {
		parts = append(parts, "inside "+s.target(*t.Within, session))
	}
	switch {
	case t.Nth != nil:
		parts = append(parts, fmt.Sprintf("(match %d)", *t.Nth))
	case t.First:
		parts = append(parts, "(the first match)")
	case t.Last:
		parts = append(parts, "(the last match)")
	}
	return strings.Join(parts, " ")
}

func match(m *transport.TextMatch) string {
	if m.Regex != "" {
		return "/" + textclip.Clip(m.Regex, promptTextBytes) + "/" + m.Flags
	}
	return strconv.Quote(textclip.Clip(m.String, promptTextBytes))
}

// originOf is a URL's origin, as the origin policy normalises it: its path and query may
// hold what the user need not see.
func originOf(raw string) string {
	if o := policy.OriginOf(raw); o != "" {
		return o
	}
	return "a URL that is not an http(s) address"
}

func inTab(tab string) string {
	if tab == "" {
		return ""
	}
	return " (tab " + strconv.Quote(textclip.Clip(tab, promptTextBytes)) + ")"
}
