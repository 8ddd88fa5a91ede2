package conformance

import (
	"context"
	"fmt"

	"github.com/fastbrowser/fastbrowser/transport"
)

// check is one conformance check: run returns why it failed, nil when it passed.
type check struct {
	name string
	run  func(context.Context, *env) error
}

// Check names, as printed and reported (docs/conformance.md describes each).
const (
	CheckOneContext       = "one-context-three-batches"
	CheckTaskOwnership    = "task-ownership-refusals"
	CheckMaskedValue      = "masked-value-absent"
	CheckUnprovenMasking  = "unproven-masking-fails-closed"
	CheckOffOriginDenied  = "off-origin-denied"
	CheckRedirectDenied   = "redirect-denied"
	CheckEgressPostures   = "egress-denial-postures"
	CheckBindingNarrowing = "binding-narrowing"
	CheckPageTextBudgets  = "page-text-budgets"
	CheckHandoffEndsBatch = "handoff-ends-batch"
	CheckEvidenceNoBytes  = "evidence-without-bytes"
	CheckStaleRefRefused  = "stale-ref-refused"
	CheckNoProcessLeft    = "no-process-left"
)

// checks run in this order, on one host; no-process-left closes it, so it is last.
var checks = []check{
	{CheckOneContext, oneContext},
	{CheckTaskOwnership, taskOwnership},
	{CheckMaskedValue, maskedValue},
	{CheckUnprovenMasking, unprovenMasking},
	{CheckOffOriginDenied, offOriginDenied},
	{CheckRedirectDenied, redirectDenied},
	{CheckEgressPostures, egressPostures},
	{CheckBindingNarrowing, bindingNarrowing},
	{CheckPageTextBudgets, pageTextBudgets},
	{CheckHandoffEndsBatch, handoffEndsBatch},
	{CheckEvidenceNoBytes, evidenceWithoutBytes},
	{CheckStaleRefRefused, staleRefRefused},
	{CheckNoProcessLeft, noProcessLeft},
}

// Names lists the check names in the order they run.
func Names() []string {
	names := make([]string, len(checks))
	for i, c := range checks {
		names[i] = c.name
	}
	return names
}

// navigate opens path on the fixture, naming the step in its error.
func (e *env) navigate(ctx context.Context, path string) (transport.NavigateResult, error) {
	res, err := transport.Dispatch(ctx, e.rt, transport.Navigate{URL: e.fixture + path})
	if err != nil {
		return res, fmt.Errorf("navigate %s: %w", path, err)
	}
	return res, nil
}

// codeOf is the protocol code of a failed call ("" for nil).
func codeOf(err error) transport.Code {
	if err == nil {
		return ""
	}
	return transport.AsOperationError("", err).Code
}

// denied reports whether err is an origin-policy refusal.
func denied(err error) bool {
	c := codeOf(err)
	return c == transport.CodeEgressDenied || c == transport.CodeOriginDenied
}
