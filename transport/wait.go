package transport

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// --- wait ---

// OpWait names the wait operation: Playwright's page.waitForLoadState, page.waitForURL and
// page.waitForTimeout as one read-only operation.
const OpWait = "wait"

// Load states a wait can wait for, by Playwright's names.
const (
	LoadStateDOMContentLoaded = "domcontentloaded" // the document's DOMContentLoaded event fired
	LoadStateLoad             = "load"             // its load event fired
	LoadStateNetworkIdle      = "networkidle"      // no network request for 500 ms (Chromium's networkIdle)
)

// LoadStates lists the load states, in the order a document reaches them.
var LoadStates = []string{LoadStateDOMContentLoaded, LoadStateLoad, LoadStateNetworkIdle}

// Wait waits, without acting, for exactly one of: the tab's current document reaching a load
// state (at once when it already has); its URL matching (an exact URL, a glob such as
// "**/orders", or {"regex","flags"?}) with its document loaded, as waitForURL's default
// waitUntil "load"; or a fixed time (durationMs; Playwright discourages it: a fixed wait is
// either too short on a slow machine or wasted on a fast one).
type Wait struct {
	op[Wait, WaitResult]
	Tab        string      `json:"tab,omitempty" handle:"tab"`
	LoadState  string      `json:"loadState,omitempty"`
	URL        *ValueMatch `json:"url,omitempty"`
	DurationMs int         `json:"durationMs,omitempty"`
	// TimeoutMs bounds a loadState or url wait (0: the wait budget's 10 s; at most its
	// ceiling). A durationMs wait is its own bound and takes none.
	TimeoutMs int `json:"timeoutMs,omitempty"`
}

// WaitResult describes the document the wait ended on.
type WaitResult struct {
	Egress
	Tab        string `json:"tab" handle:"tab"`
	URL        string `json:"url"`
	DocumentID string `json:"documentId"`
}

func (r Wait) Validate() error {
	if err := checkTab(OpWait, "request.tab", r.Tab, false); err != nil {
		return err
	}
	var given []string
	if r.LoadState != "" {
		given = append(given, "loadState")
	}
	if r.URL != nil {
		given = append(given, "url")
	}
	if r.DurationMs != 0 {
		given = append(given, "durationMs")
	}
	switch {
	case len(given) == 0:
		return Invalid(OpWait, "request", "expected exactly one of loadState, url and durationMs")
	case len(given) > 1:
		return Invalid(OpWait, "request."+given[1], "give exactly one of loadState, url and durationMs, not %s", strings.Join(given, " and "))
	}
	ceiling := budgets.Wait().Ceiling.Milliseconds()
	switch {
	case r.LoadState != "" && !slices.Contains(LoadStates, r.LoadState):
		return Invalid(OpWait, "request.loadState", "expected one of %s", strings.Join(LoadStates, ", "))
	case r.URL != nil:
		if err := checkWaitURL(r.URL); err != nil {
			return err
		}
	case r.DurationMs < 0 || int64(r.DurationMs) > ceiling:
		return NewError(OpWait, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "durationMs must be between 1 and %d", ceiling).WithPath("request.durationMs")
	}
	if r.DurationMs != 0 && r.TimeoutMs != 0 {
		return Invalid(OpWait, "request.timeoutMs", "a durationMs wait is its own bound; timeoutMs goes with loadState and url")
	}
	if r.TimeoutMs < 0 || int64(r.TimeoutMs) > ceiling {
		return NewError(OpWait, PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "timeoutMs must be between 0 and %d", ceiling).WithPath("request.timeoutMs")
	}
	return nil
}

// checkWaitURL checks a url wait's URL: a non-empty, bounded string (exact or glob) or a
// regex with assert's rules.
func checkWaitURL(m *ValueMatch) error {
	if m.IsRegex() {
		// assert's rules for a url regex, under this operation's name.
		if err := checkValueMatch(Assert{Kind: AssertURL}, "request.url", m, true); err != nil {
			oe := AsOperationError(OpWait, err)
			oe.Operation = OpWait
			return oe
		}
		return nil
	}
	switch {
	case m.Flags != "":
		return Invalid(OpWait, "request.url.flags", "flags go with regex")
	case m.String == "":
		return Invalid(OpWait, "request.url", "expected a URL, a glob such as \"**/orders\", or {\"regex\"}")
	case utf8.RuneCountInString(m.String) > budgets.URLBytes:
		return Invalid(OpWait, "request.url", "longer than %d characters", budgets.URLBytes)
	}
	return nil
}

// WaitBudget is how long a loadState or url wait waits (its timeoutMs, else the wait
// budget's default), and a durationMs wait its duration.
func WaitBudget(r *Wait) time.Duration {
	switch {
	case r.DurationMs > 0:
		return time.Duration(r.DurationMs) * time.Millisecond
	case r.TimeoutMs > 0:
		return time.Duration(r.TimeoutMs) * time.Millisecond
	}
	return budgets.Wait().Default
}

// waitDeadline: the wait's own budget plus the margin.
func waitDeadline(op Operation, _ time.Duration) time.Duration {
	switch r := op.(type) {
	case *Wait:
		return WaitBudget(r) + budgets.ClientMargin
	case Wait:
		return WaitBudget(&r) + budgets.ClientMargin
	}
	return budgets.Wait().Default + budgets.ClientMargin
}
