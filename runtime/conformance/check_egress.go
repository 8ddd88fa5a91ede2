package conformance

import (
	"context"
	"fmt"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// offOriginDenied: a navigation to an origin outside the session's policy (the canary) is
// refused and the canary never hears from the browser.
func offOriginDenied(ctx context.Context, e *env) error {
	res, err := transport.Dispatch(ctx, e.rt, transport.Navigate{URL: e.canaryURL + "/canary/off-origin"})
	if !denied(err) {
		return fmt.Errorf("navigate to an origin outside the policy: got %s, want %s or %s", outcome(res.URL, err), transport.CodeEgressDenied, transport.CodeOriginDenied)
	}
	return e.canarySilent()
}

// redirectDenied: an allowed page that redirects off-origin (/egress/redirect: a 302 to
// the canary) fails the navigation, and the canary never hears from the browser.
func redirectDenied(ctx context.Context, e *env) error {
	res, err := transport.Dispatch(ctx, e.rt, transport.Navigate{URL: fixture.EgressURL(e.fixture, "redirect", e.canaryURL)})
	if !denied(err) {
		return fmt.Errorf("navigate to a page that redirects off-origin: got %s, want %s", outcome(res.URL, err), transport.CodeEgressDenied)
	}
	return e.canarySilent()
}

func (e *env) canarySilent() error {
	if n := e.canary.Connections(); n != 0 {
		return fmt.Errorf("the off-origin canary saw %d connection(s) (%v)", n, e.canary.Paths())
	}
	return nil
}

// outcome describes what a call that should have been refused did (url: where a navigation
// that succeeded ended up; "" for a call that goes nowhere).
func outcome(url string, err error) string {
	if err == nil && url == "" {
		return "success"
	}
	if err == nil {
		return "success at " + url
	}
	return "error " + err.Error()
}
