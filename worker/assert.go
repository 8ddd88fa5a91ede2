package worker

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = handlesTab((*Worker).assert)

// assert checks one read-only fact. wait "bounded" polls within the read/assertion budget;
// "none" reads once. Only reads are repeated, never anything that acts.
func (w *Worker) assert(ctx context.Context, t *tab, r *transport.Assert, _ policy.Policy) (transport.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, budgets.ReadWait().Default)
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
	var last pageText
	for {
		attempts++
		script := documentInfoScript
		if r.Kind == transport.AssertTextContains {
			script = readScript
		}
		var pt pageText
		err := w.evaluate(ctx, t, script, &pt)
		if err != nil && !(errors.Is(err, context.DeadlineExceeded) && attempts > 1) {
			return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
		}
		if err == nil {
			last = pt
			if holds(r.Kind, want, pt) {
				return &transport.AssertResult{Tab: string(t.id), Kind: r.Kind, Passed: true, Attempts: attempts}, nil
			}
		}
		if r.Wait == transport.WaitNone || ctx.Err() != nil {
			return nil, assertionFailed(r, last, attempts)
		}
		select {
		case <-time.After(budgets.AssertPoll):
		case <-ctx.Done():
			if err := ctx.Err(); errors.Is(err, context.Canceled) {
				return nil, w.cdpFailure(transport.OpAssert, transport.NotAttempted, err)
			}
			return nil, assertionFailed(r, last, attempts)
		}
	}
}

func holds(kind, want string, pt pageText) bool {
	switch kind {
	case transport.AssertURL:
		return pt.URL == want
	case transport.AssertOrigin:
		return policy.OriginOf(pt.URL) == want
	case transport.AssertTitle:
		return pt.Title == want
	case transport.AssertTitleContains:
		return strings.Contains(pt.Title, want)
	case transport.AssertTextContains:
		return strings.Contains(collapseSpace(pt.Text), want)
	}
	return false
}

// assertionFailed says what was expected. It names the actual URL's origin and path (never
// its query or fragment) and the actual title, but never page text.
func assertionFailed(r *transport.Assert, last pageText, attempts int) error {
	within := "on one read"
	if r.Wait != transport.WaitNone {
		within = "within " + budgets.ReadWait().Default.String()
	}
	var msg string
	switch r.Kind {
	case transport.AssertURL:
		msg = "url did not equal " + quote(r.Value) + " " + within + " (page is at " + quote(urlWithoutQuery(last.URL)) + ")"
	case transport.AssertOrigin:
		msg = "origin did not equal " + quote(r.Value) + " " + within + " (page origin " + quote(policy.OriginOf(last.URL)) + ")"
	case transport.AssertTitle:
		msg = "title did not equal " + quote(r.Value) + " " + within + " (title is " + quote(transport.ClipChars(last.Title, budgets.QuotedTitleChars)) + ")"
	case transport.AssertTitleContains:
		msg = "title did not contain " + quote(r.Value) + " " + within + " (title is " + quote(transport.ClipChars(last.Title, budgets.QuotedTitleChars)) + ")"
	default:
		msg = "text " + quote(r.Value) + " did not appear " + within
	}
	return transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "%s", msg)
}
