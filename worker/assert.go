package worker

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = handlesTab((*Worker).assert)

// assert checks one read-only fact. wait "bounded" polls within the read/assertion budget
// (or the request's shorter timeoutMs); "none" reads once. Only reads are repeated, never
// anything that acts. With not, the assertion holds while the fact does not.
func (w *Worker) assert(ctx context.Context, t *tab, r *transport.Assert, pol policy.Policy) (transport.Result, error) {
	within := budgets.ReadWait().Default
	if r.TimeoutMs > 0 {
		within = time.Duration(r.TimeoutMs) * time.Millisecond
	}
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
	attempts := 0
	var last facts
	for {
		attempts++
		f, err := w.readFacts(ctx, t, r.Kind, pol)
		if err != nil && !(errors.Is(err, context.DeadlineExceeded) && attempts > 1) {
			return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
		}
		if err == nil {
			last = f
			if holds(r.Kind, want, f) != r.Not {
				return &transport.AssertResult{Tab: string(t.id), Kind: r.Kind, Passed: true, Attempts: attempts}, nil
			}
		}
		if r.Wait == transport.WaitNone || ctx.Err() != nil {
			return nil, assertionFailed(r, last, within)
		}
		select {
		case <-time.After(budgets.AssertPoll):
		case <-ctx.Done():
			if err := ctx.Err(); errors.Is(err, context.Canceled) {
				return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
			}
			return nil, assertionFailed(r, last, within)
		}
	}
}

// facts is what one read of the page gives an assertion: the visible text only for
// textContains, the page class only for pageClass (it takes an outline).
type facts struct {
	pageText
	Status    int `json:"status"`
	PageClass string
}

func (w *Worker) readFacts(ctx context.Context, t *tab, kind string, pol policy.Policy) (facts, error) {
	var f facts
	switch kind {
	case transport.AssertTextContains:
		return f, w.evaluate(ctx, t, readScript, &f.pageText)
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

func holds(kind, want string, f facts) bool {
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
	}
	return false
}

// assertionFailed says what was expected and what was found. It names the actual URL's
// origin and path (never its query or fragment), the title, the status and the page class,
// but never page text.
func assertionFailed(r *transport.Assert, last facts, budget time.Duration) error {
	within := "on one read"
	if r.Wait != transport.WaitNone {
		within = "within " + budget.String()
	}
	var msg string
	switch {
	case r.Not:
		msg = r.Kind + " still matched " + quote(r.Value) + " " + within
	case r.Kind == transport.AssertURL:
		msg = "url did not equal " + quote(r.Value) + " " + within + " (page is at " + quote(urlWithoutQuery(last.URL)) + ")"
	case r.Kind == transport.AssertOrigin:
		msg = "origin did not equal " + quote(r.Value) + " " + within + " (page origin " + quote(policy.OriginOf(last.URL)) + ")"
	case r.Kind == transport.AssertTitle:
		msg = "title did not equal " + quote(r.Value) + " " + within + " (title is " + quote(transport.ClipChars(last.Title, budgets.QuotedTitleChars)) + ")"
	case r.Kind == transport.AssertTitleContains:
		msg = "title did not contain " + quote(r.Value) + " " + within + " (title is " + quote(transport.ClipChars(last.Title, budgets.QuotedTitleChars)) + ")"
	case r.Kind == transport.AssertStatus:
		msg = "status was not " + r.Value + " " + within + " (status " + strconv.Itoa(last.Status) + ")"
	case r.Kind == transport.AssertPageClass:
		msg = "page class was not " + quote(r.Value) + " " + within + " (page class " + quote(last.PageClass) + ")"
	default:
		msg = "text " + quote(r.Value) + " did not appear " + within
	}
	return transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "%s", msg)
}
