package worker

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// What a failed assertion reports besides its message (transport.OperationError's
// Expected, Received and CallLog): what it asked for, what the last look saw, and every look
// with runs of equal ones folded, as Playwright's expect prints its call log.

// expectedOf is the assertion's expected value as a failure shows it: "feed the dog",
// /^a$/i, visible, a JSON array for a list; "not …" for a not-assertion.
func expectedOf(r *transport.Assert) string {
	var e string
	switch {
	case isStateKind(r.Kind):
		e = r.Kind
	case r.Values != nil:
		items := make([]string, len(r.Values))
		for i := range r.Values {
			if r.Values[i].IsRegex() {
				items[i] = r.Values[i].Describe()
			} else {
				items[i] = r.Values[i].String
			}
		}
		b, _ := json.Marshal(items)
		e = string(b)
	case r.Kind == transport.AssertCount || r.Kind == transport.AssertStatus:
		e = r.Value
	case r.Kind == transport.AssertChecked:
		e = map[string]string{"true": "checked", "false": "unchecked"}[r.Value]
	case r.Kind == transport.AssertAttribute && r.ValueMatch == nil:
		e = "attribute " + quote(r.Name) + " present"
	case r.Kind == transport.AssertStorage && r.JSONContains != nil:
		e = "JSON containing " + string(r.JSONContains)
	case r.Kind == transport.AssertStorage && r.ValueMatch == nil:
		e = "key " + quote(r.Storage.Key) + " present"
	case r.ValueMatch != nil:
		e = r.ValueMatch.Describe()
	}
	if r.IgnoreCase && e != "" {
		e += " (ignoring case)"
	}
	if r.Not {
		return "not " + e
	}
	return e
}

// expectation is the call log's "to …" phrase.
func expectation(r *transport.Assert) string {
	not := ""
	if r.Not {
		not = "not "
	}
	switch {
	case isStateKind(r.Kind):
		return not + "be " + r.Kind
	case r.Kind == transport.AssertCount:
		return not + "have count " + r.Value
	case r.Kind == transport.AssertAttribute:
		return not + "have attribute " + quote(r.Name) + valuePart(r)
	case r.Kind == transport.AssertStorage:
		return not + "have " + r.Storage.Area + "Storage " + quote(r.Storage.Key) + valuePart(r)
	case r.Kind == transport.AssertTextContains, r.Kind == transport.AssertTitleContains, r.Kind == transport.AssertClassContains:
		return not + "contain " + strings.TrimSuffix(r.Kind, "Contains") + " " + expectedOf(&transport.Assert{Kind: r.Kind, ValueMatch: r.ValueMatch})
	}
	return not + "have " + r.Kind + " " + expectedOf(&transport.Assert{Kind: r.Kind, ValueMatch: r.ValueMatch, Values: r.Values, IgnoreCase: r.IgnoreCase})
}

func valuePart(r *transport.Assert) string {
	switch {
	case r.JSONContains != nil:
		return " containing " + string(r.JSONContains)
	case r.ValueMatch != nil:
		return " " + r.ValueMatch.Describe()
	}
	return ""
}

// subject is what the call log waits for: the target, or the page.
func subject(r *transport.Assert) string {
	switch {
	case r.Target != nil:
		return targetWords(*r.Target)
	case r.Cell != nil:
		return "cell (row " + quote(r.Cell.Row) + ", column " + quote(r.Cell.Column) + ")"
	}
	return "page"
}

// receivedOf is what the last look saw of what the assertion compares, clipped (and never a
// password's or a typed secret's value: those are refused before they are read).
func receivedOf(r *transport.Assert, f facts, clip func(string, int) string) string {
	sc := f.scoped
	c := func(s string) string { return clip(s, budgets.QuotedFoundChars) }
	switch r.Kind {
	case transport.AssertVisible, transport.AssertHidden:
		switch {
		case sc.absent:
			return "hidden (no element)"
		case sc.st.Visible:
			return "visible"
		case sc.ex.HiddenBy != "":
			return "hidden (" + sc.ex.HiddenBy + ")"
		}
		return "hidden"
	case transport.AssertEnabled, transport.AssertDisabled:
		if sc.st.Enabled {
			return "enabled"
		}
		return "disabled"
	case transport.AssertEditable:
		switch {
		case !sc.st.Enabled:
			return "disabled"
		case sc.ex.ReadOnly:
			return "read-only"
		}
		return "editable"
	case transport.AssertFocused:
		if sc.ex.Focused {
			return "focused"
		}
		return "not focused"
	case transport.AssertAttribute:
		if !sc.ex.Present {
			return "no attribute " + quote(r.Name)
		}
		return c(sc.ex.Attr)
	case transport.AssertClass, transport.AssertClassContains:
		return c(sc.ex.ClassName)
	case transport.AssertText:
		if r.Values != nil {
			return listJSON(sc.list, c)
		}
		return c(sc.ex.Text)
	case transport.AssertValues:
		return listJSON(sc.ex.Values, c)
	case transport.AssertValue:
		return c(sc.value)
	case transport.AssertChecked:
		return map[string]string{"true": "checked", "false": "unchecked"}[sc.value]
	case transport.AssertCount:
		return sc.value
	case transport.AssertURL:
		return urlWithoutQuery(f.URL)
	case transport.AssertOrigin:
		return policy.OriginOf(f.URL)
	case transport.AssertTitle, transport.AssertTitleContains:
		return clip(f.Title, budgets.QuotedTitleChars)
	case transport.AssertStatus:
		return strconv.Itoa(f.Status)
	case transport.AssertPageClass:
		return f.PageClass
	case transport.AssertStorage:
		switch {
		case f.storage.Denied:
			return "storage not readable (the page's origin has none)"
		case !f.storage.Present:
			return "no key " + quote(r.Storage.Key)
		}
		return c(f.storage.Value)
	case transport.AssertTextContains:
		if sc.what != "" {
			return c(collapseSpace(f.Text))
		}
		// The whole page is not quoted: that would be page text nobody asked about.
		return strconv.Itoa(len([]rune(f.Text))) + " characters of visible text"
	}
	return ""
}

// listJSON is a list as a JSON array, each item clipped, the array bounded by what a
// failure quotes: items past it are left out, and "…" says so.
func listJSON(items []string, clip func(string) string) string {
	out := make([]string, 0, len(items))
	total := 0
	for _, it := range items {
		it = clip(it)
		total += len([]rune(it))
		if total > budgets.QuotedFoundChars*4 {
			out = append(out, "…")
			break
		}
		out = append(out, it)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// lookLine is one look in the call log: what it saw.
func lookLine(r *transport.Assert, f facts, err error, clip func(string, int) string) string {
	if err != nil {
		var ny *notYet
		switch {
		case errors.As(err, &ny) && ny.code == transport.CodeElementNotFound:
			return "element not found"
		case errors.As(err, &ny):
			return ny.msg
		}
		return "could not read the page"
	}
	rec := receivedOf(r, f, clip)
	switch r.Kind {
	case transport.AssertVisible, transport.AssertHidden, transport.AssertEnabled, transport.AssertDisabled,
		transport.AssertEditable, transport.AssertFocused, transport.AssertChecked, transport.AssertPageClass:
		return rec
	case transport.AssertCount:
		return "count " + rec
	case transport.AssertStatus:
		return "status " + rec
	case transport.AssertTextContains:
		if f.scoped.what == "" {
			return rec
		}
	}
	if r.Kind == transport.AssertAttribute && !f.scoped.ex.Present ||
		r.Kind == transport.AssertStorage && (!f.storage.Present || f.storage.Denied) ||
		strings.HasPrefix(rec, "[") && (r.Values != nil) {
		return r.Kind + " " + rec
	}
	return r.Kind + " " + quote(rec)
}

// callLog is an assertion's looks, runs of equal ones folded.
type callLog struct {
	head   string
	lines  []string
	counts []int
}

func (l *callLog) add(line string) {
	if n := len(l.lines); n > 0 && l.lines[n-1] == line {
		l.counts[n-1]++
		return
	}
	l.lines = append(l.lines, line)
	l.counts = append(l.counts, 1)
}

// out is the log as the failure carries it: the head, then each run ("3 × …"), at most
// budgets.CallLogLines lines: a longer log keeps its first and last runs around "…".
func (l *callLog) out() []string {
	runs := make([]string, len(l.lines))
	for i, s := range l.lines {
		if l.counts[i] > 1 {
			s = strconv.Itoa(l.counts[i]) + " × " + s
		}
		runs[i] = s
	}
	if room := budgets.CallLogLines - 1; len(runs) > room {
		first := (room - 1) / 2
		last := room - 1 - first
		runs = append(append(append([]string{}, runs[:first]...), "…"), runs[len(runs)-last:]...)
	}
	return append([]string{l.head}, runs...)
}

// withDetails fills a failure's expected, received and call log.
func withDetails(err error, expected, received string, log []string) error {
	oe, ok := err.(*transport.OperationError)
	if !ok {
		return err
	}
	oe.Expected, oe.Received, oe.CallLog = expected, received, log
	return oe
}
