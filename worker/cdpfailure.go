package worker

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/transport"
)

// cdpFailure turns a CDP error into a safe OperationError; the raw error goes to the log.
// Every refusal the browser gives for a known reason gets that reason's code; only a call
// the browser refused for a reason not listed here is internal, named by its method and the
// browser's error number (never its text, which may echo the call's parameters).
func (w *Worker) cdpFailure(op string, mut transport.MutationState, err error) error {
	w.log.Printf("%s: cdp: %v", op, err)
	switch {
	case errors.Is(err, errTabGone):
		return transport.NewError(op, transport.PhaseExecute, transport.CodeTabNotFound, transport.RetryNever, mut, "the tab closed during the operation").WithCause(err)
	case errors.Is(err, context.DeadlineExceeded):
		return transport.NewError(op, transport.PhaseExecute, transport.CodeTimeout, retryFor(mut), mut, "the browser did not answer in time").WithCause(err)
	case errors.Is(err, context.Canceled):
		return transport.NewError(op, transport.PhaseExecute, transport.CodeCancelled, retryFor(mut), mut, "cancelled").WithCause(err)
	case connClosed(err):
		// A tab's (or frame's) socket closed: it went away, or the whole browser did, which
		// only the browser connection tells (see browserlife.go; run's blameBrowser waits
		// for it when the tab's socket closed first).
		if w.life.isDead() {
			return transport.NewError(op, transport.PhaseExecute, transport.CodeBrowserCrashed, transport.RetryNever, mut, "the browser died during the operation (its DevTools connection closed)").WithCause(err)
		}
		return transport.NewError(op, transport.PhaseExecute, transport.CodeTabNotFound, transport.RetryNever, mut, "the tab (or a frame in it) went away during the operation").WithCause(err)
	case documentGone(err):
		return transport.NewError(op, transport.PhaseExecute, transport.CodeStaleDocument, retryFor(mut), mut, "the page's document was replaced during the operation (a navigation committed)").WithCause(err)
	}
	return transport.NewError(op, transport.PhaseExecute, transport.CodeInternal, retryFor(mut), mut, "the browser refused a DevTools call%s", refusedCall(err)).WithCause(err)
}

func retryFor(m transport.MutationState) transport.Retry {
	if m == transport.NotAttempted {
		return transport.RetrySafe
	}
	return transport.RetryUnsafe
}

// goneFragments are the parts of Chromium's answers (server error -32000) to a call about
// an execution context, node, object or frame that no longer exists: the document the call
// was reading was replaced under it, most often by a navigation a click started that
// committed during a later read.
var goneFragments = []string{
	"Cannot find context with specified id",
	"Execution context was destroyed",
	"Cannot find default execution context",
	"Inspected target navigated or closed",
	"Could not find object with given id",
	"Could not find node with given id",
	"No node with given id found",
	"Node with given id does not belong to the document",
	"No frame for given id found",
	"Frame with the given id was not found",
	"Could not compute box model",
	"Could not compute content quads",
	"Node does not have a layout object",
	"Not attached to an active page",
}

// documentGone reports whether the browser refused a call because what it named (a context,
// a node, an object, a frame) went away with its document.
func documentGone(err error) bool {
	var re *rpcc.ResponseError
	if !errors.As(err, &re) || re.Code != -32000 {
		return false
	}
	for _, f := range goneFragments {
		if strings.Contains(re.Message, f) {
			return true
		}
	}
	return false
}

// cdpCall matches the method mafredri/cdp puts at the front of a call's error: "cdp.DOM:
// DescribeNode: …".
var cdpCall = regexp.MustCompile(`^cdp\.([A-Za-z]+): ([A-Za-z]+): `)

// refusedCall names a refused call for the message, " (DOM.describeNode, error -32000)", from
// what is safe to show: the method and the browser's error number, never its text.
func refusedCall(err error) string {
	var parts []string
	if m := cdpCall.FindStringSubmatch(err.Error()); m != nil {
		parts = append(parts, m[1]+"."+strings.ToLower(m[2][:1])+m[2][1:])
	}
	var re *rpcc.ResponseError
	if errors.As(err, &re) {
		parts = append(parts, "error "+strconv.FormatInt(re.Code, 10))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
