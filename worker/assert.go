package worker

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = handlesTab((*Worker).assert)

// assert checks one read-only fact. wait "bounded" polls within the read/assertion budget
// (or the request's shorter timeoutMs); "none" reads once. Only reads are repeated, never
// anything that acts. With not, the assertion holds while the fact does not. A target or a
// cell that is not there (yet) is looked for again like the fact; when the wait ends without
// it, the assertion fails element_not_found, naming what never appeared.
func (w *Worker) assert(ctx context.Context, t *tab, r *transport.Assert, pol policy.Policy) (transport.Result, error) {
	r.Normalize()
	within := r.ExpectedWait()
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	want := r.Value
	if r.Kind == transport.AssertOrigin {
		if n, err := policy.NormalizeOrigin(r.Value); err == nil {
			want = n
		}
	}
	if r.Kind == transport.AssertTextContains {
		want = collapseSpace(want)
	}
	log := &callLog{head: "waiting for " + subject(r) + " to " + expectation(r)}
	attempts := 0
	var last facts
	var missing *notYet // the last look did not find the target or the cell
	looked := false     // a look read the page (or found what is missing in it)
	var gone error      // the last look's document being replaced, while none has looked
	for {
		attempts++
		f, err := w.readFacts(ctx, t, r, pol)
		// A look that failed as the wait ran out is no verdict (a DevTools call inside it
		// was cut short): it is not logged, and what the look before it saw stands.
		cut := err != nil && attempts > 1 && ctx.Err() != nil
		if !cut {
			log.add(lookLine(r, f, err, w.clipScrubbed))
		}
		var ny *notYet
		looked = looked || err == nil || errors.As(err, &ny)
		switch {
		case err == nil:
			last, missing = f, nil
			if holds(r, want, f) != r.Not {
				return &transport.AssertResult{Tab: string(t.id), Kind: r.Kind, Passed: true, Attempts: attempts}, nil
			}
		case cut:
			// As act's wait does: "no longer in the page" from a resolve the deadline
			// stopped is no verdict on the element.
		case errors.As(err, &ny):
			missing = ny
		case r.Wait != transport.WaitNone && documentGone(err) && ctx.Err() == nil:
			// The document was replaced under the look (a navigation committing): this is
			// a read, so the next look reads the new one, within the same wait.
			gone = err
		default:
			var oe *transport.OperationError
			if errors.As(err, &oe) {
				return nil, asAssert(err)
			}
			return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
		}
		if r.Wait == transport.WaitNone || ctx.Err() != nil {
			return nil, assertEnded(r, last, missing, within, w.clipScrubbed, log)
		}
		select {
		case <-time.After(budgets.AssertPoll):
		case <-ctx.Done():
			if err := ctx.Err(); errors.Is(err, context.Canceled) {
				return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
			}
			if !looked && gone != nil {
				return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, gone)
			}
			return nil, assertEnded(r, last, missing, within, w.clipScrubbed, log)
		}
	}
}

// assertEnded is the failure when the wait ended: the target or cell never found, else the
// fact that did not hold.
func assertEnded(r *transport.Assert, last facts, missing *notYet, budget time.Duration, clip func(string, int) string, log *callLog) error {
	if missing != nil {
		return withDetails(missing.after(transport.OpAssert, assertBudget(r, budget)), expectedOf(r), "", log.out())
	}
	return withDetails(assertionFailed(r, last, budget, clip), expectedOf(r), receivedOf(r, last, clip), log.out())
}

// assertBudget names the budget an assertion waited within, and its value ("" for one read).
func assertBudget(r *transport.Assert, budget time.Duration) string {
	switch {
	case r.Wait == transport.WaitNone:
		return ""
	case r.TimeoutMs > 0:
		return "the assertion's timeoutMs (" + budget.String() + ")"
	}
	return "the assertion budget (" + budget.String() + ")"
}

// facts is what one read of the page gives an assertion: the visible text only for
// textContains, the page class only for pageClass (it takes an outline), what a target or a
// cell holds only for an assertion that names one.
type facts struct {
	pageText
	Status    int `json:"status"`
	PageClass string
	scoped    scoped
	storage   storageRead // storage
}

func (w *Worker) readFacts(ctx context.Context, t *tab, r *transport.Assert, pol policy.Policy) (facts, error) {
	var f facts
	if r.Target != nil || r.Cell != nil {
		s, err := w.readScoped(ctx, t, r)
		// Only a look that ran to its end may say the target is absent: one the wait's
		// deadline cut short keeps its error, which assert does not count as a look.
		if err != nil && absentForState(r, err) && ctx.Err() == nil {
			s, err = scoped{absent: true, what: targetWords(*r.Target)}, nil
		}
		f.scoped = s
		f.Text, f.Truncated = s.text, s.truncated
		return f, err
	}
	switch r.Kind {
	case transport.AssertStorage:
		st, err := w.readStorage(ctx, t, r.Storage)
		f.storage = st
		return f, err
	case transport.AssertTextContains:
		pt, err := w.readPage(ctx, t)
		f.pageText = pt
		return f, err
	case transport.AssertPageClass:
		res, err := w.observe(ctx, t, &transport.Observe{}, pol)
		if err != nil {
			return f, err
		}
		o := res.(*transport.ObserveResult)
		f.URL, f.Title, f.PageClass = o.URL, o.Title, o.PageClass
		return f, nil
	}
	return f, w.evaluate(ctx, t, documentInfoScript, &f)
}

func holds(r *transport.Assert, want string, f facts) bool {
	kind := r.Kind
	if expectKind(kind) || kind == transport.AssertStorage || r.ValueMatch.IsRegex() || r.IgnoreCase {
		return expectHolds(r, f)
	}
	switch kind {
	case transport.AssertURL:
		return f.URL == want
	case transport.AssertOrigin:
		return policy.OriginOf(f.URL) == want
	case transport.AssertTitle:
		return f.Title == want
	case transport.AssertTitleContains:
		return strings.Contains(f.Title, want)
	case transport.AssertTextContains:
		return strings.Contains(collapseSpace(f.Text), want)
	case transport.AssertStatus:
		return strconv.Itoa(f.Status) == want
	case transport.AssertPageClass:
		return f.PageClass == want
	case transport.AssertValue:
		return f.scoped.value == want || f.scoped.label != "" && f.scoped.label == want
	case transport.AssertChecked, transport.AssertCount:
		return f.scoped.value == want
	}
	return false
}

// assertionFailed says what was expected and what was found, within which budget. It names
// the actual URL's origin and path (never its query or fragment), the title, the status, the
// page class, a count, a checkbox's state, and clipped by clip (Worker.clipScrubbed: a cut
// never splits a typed secret), the text of the element or cell or the field's value it
// compared against (a value is never read from a password field or a field holding a
// secret, and the runtime scrubs the session's secrets from every message).
// Of the whole page it says only how much text it searched: quoting it would be page text
// nobody named.
func assertionFailed(r *transport.Assert, last facts, budget time.Duration, clip func(string, int) string) error {
	within := "on one read"
	if b := assertBudget(r, budget); b != "" {
		within = "within " + b
	}
	found := func(s string) string { return quote(clip(s, budgets.QuotedFoundChars)) }
	sc := last.scoped
	var msg string
	switch {
	case expectKind(r.Kind) || r.Kind == transport.AssertStorage || r.ValueMatch.IsRegex() || r.IgnoreCase:
		msg = "expected " + subject(r) + " to " + expectation(r) + " " + within + " (received: " + receivedOf(r, last, clip) + ")"
	case r.Not && sc.what != "":
		msg = r.Kind + " of " + sc.what + " still matched " + quote(r.Value) + " " + within
	case r.Not:
		msg = r.Kind + " still matched " + quote(r.Value) + " " + within
	case r.Kind == transport.AssertURL:
		msg = "url did not equal " + quote(r.Value) + " " + within + " (page is at " + quote(urlWithoutQuery(last.URL)) + ")"
	case r.Kind == transport.AssertOrigin:
		msg = "origin did not equal " + quote(r.Value) + " " + within + " (page origin " + quote(policy.OriginOf(last.URL)) + ")"
	case r.Kind == transport.AssertTitle:
		msg = "title did not equal " + quote(r.Value) + " " + within + " (title is " + quote(clip(last.Title, budgets.QuotedTitleChars)) + ")"
	case r.Kind == transport.AssertTitleContains:
		msg = "title did not contain " + quote(r.Value) + " " + within + " (title is " + quote(clip(last.Title, budgets.QuotedTitleChars)) + ")"
	case r.Kind == transport.AssertStatus:
		msg = "status was not " + r.Value + " " + within + " (status " + strconv.Itoa(last.Status) + ")"
	case r.Kind == transport.AssertPageClass:
		msg = "page class was not " + quote(r.Value) + " " + within + " (page class " + quote(last.PageClass) + ")"
	case r.Kind == transport.AssertValue:
		msg = "value of " + sc.what + " was not " + quote(r.Value) + " " + within + " (value is " + found(sc.value)
		if sc.truncated {
			msg += "; only its first " + strconv.Itoa(budgets.FieldValueChars) + " characters were read"
		}
		msg += ")"
	case r.Kind == transport.AssertChecked:
		state := map[string]string{"true": "checked", "false": "unchecked"}
		msg = sc.what + " was not " + state[r.Value] + " " + within + " (it is " + state[sc.value] + ")"
	case r.Kind == transport.AssertCount:
		msg = "count of " + sc.what + " was not " + r.Value + " " + within + " (found " + sc.value + ")"
	case sc.what != "":
		msg = "text of " + sc.what + " did not contain " + quote(r.Value) + " " + within + " (its text is " + found(collapseSpace(last.Text)) + ")"
	default:
		// The whole page is not quoted: that would be page text nobody asked about.
		msg = "text " + quote(r.Value) + " did not appear " + within + " (searched the page's visible text, " +
			strconv.Itoa(utf8.RuneCountInString(last.Text)) + " characters)"
	}
	return transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "%s", msg)
}
