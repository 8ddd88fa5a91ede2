package worker

import (
	"context"
	"net/url"
	"strings"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/fetch"
	"github.com/mafredri/cdp/protocol/network"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// egress enforces the origin policy inside the browser: every request of every attached tab
// pauses at the Fetch Request stage and is continued or failed here. The policy in force is
// the effective policy of the latest operation: it stays until the next operation starts.
type egress struct {
	mu       sync.Mutex
	active   policy.Policy
	pending  []transport.Blocked // refused and not yet reported
	document bool                // a refused request among pending was a navigation
	report   bool                // subresources: report instead of fail
	// signal is closed (and forgotten) at the next refusal: a wait that a refusal must end
	// (a download's) selects on it.
	signal chan struct{}
}

// refusals returns a channel closed at the next refusal.
func (e *egress) refusals() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.signal == nil {
		e.signal = make(chan struct{})
	}
	return e.signal
}

// failing says whether what was refused and not yet reported fails the operation (take's
// second answer, without taking).
func (e *egress) failing() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.pending) > 0 && (e.document || !e.report)
}

func (e *egress) setActive(p policy.Policy) {
	e.mu.Lock()
	e.active = p
	e.mu.Unlock()
}

// allows classifies one request URL: http(s) by exact origin, ws(s) as its http(s) origin;
// anything else that reaches the network layer is refused.
func (e *egress) allows(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "invalid", false
	}
	switch u.Scheme {
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	case "http", "https":
	default:
		return u.Scheme + ":", false
	}
	origin := policy.OriginOf(u.String())
	if origin == "" {
		return u.Scheme + ":", false
	}
	e.mu.Lock()
	ok := e.active.AllowsOrigin(origin)
	e.mu.Unlock()
	return origin, ok
}

// originOrScheme is what a record keeps of a URL (a refusal, a network summary): its
// origin, or its scheme ("data:") when it has none — never a path, query or fragment.
func originOrScheme(raw string) string {
	if o := policy.OriginOf(raw); o != "" {
		return o
	}
	if u, err := url.Parse(raw); err == nil && u.Scheme != "" {
		return u.Scheme + ":"
	}
	return "invalid"
}

func (e *egress) refuse(kind, origin string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if kind == "document" {
		e.document = true
	}
	if e.signal != nil {
		close(e.signal)
		e.signal = nil
	}
	for _, b := range e.pending {
		if b.Kind == kind && b.Origin == origin {
			return // one line per kind and origin is enough to act on
		}
	}
	if len(e.pending) < 64 {
		e.pending = append(e.pending, transport.Blocked{Kind: kind, Origin: origin})
	}
}

// take returns and clears what was refused since the last take, and whether the operation
// that reports it must fail: always for a navigation, for a subresource unless reporting.
func (e *egress) take() ([]transport.Blocked, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, doc := e.pending, e.document
	e.pending, e.document = nil, false
	return b, len(b) > 0 && (doc || !e.report)
}

// intercept turns on Fetch interception for a target (a tab, or a frame or worker attached
// under one) and answers every paused request. It must run before the target loads
// anything. Events are always drained.
func (w *Worker) intercept(ctx context.Context, c *cdp.Client) error {
	paused, err := c.Fetch.RequestPaused(ctx)
	if err != nil {
		return err
	}
	all := "*"
	if err := c.Fetch.Enable(ctx, fetch.NewEnableArgs().SetPatterns([]fetch.RequestPattern{{URLPattern: &all, RequestStage: fetch.RequestStageRequest}})); err != nil {
		paused.Close()
		return err
	}
	// Answers go out concurrently (a page's 50 images need not wait on each other's round
	// trips), at most 16 at a time.
	slots := make(chan struct{}, 16)
	drain(paused, func(ev *fetch.RequestPausedReply) {
		slots <- struct{}{}
		go func() {
			defer func() { <-slots }()
			w.decide(c, ev)
		}()
	})
	return nil
}

// decide continues an allowed request and fails a refused one in the browser, recording its
// kind and origin only.
func (w *Worker) decide(c *cdp.Client, ev *fetch.RequestPausedReply) {
	ctx, cancel := w.callContext()
	defer cancel()
	origin, ok := w.egress.allows(ev.Request.URL)
	if ok {
		if err := c.Fetch.ContinueRequest(ctx, fetch.NewContinueRequestArgs(ev.RequestID)); err != nil {
			w.log.Printf("continue request: %v", err)
		}
		return
	}
	kind := strings.ToLower(string(ev.ResourceType))
	w.egress.refuse(kind, origin)
	if err := c.Fetch.FailRequest(ctx, fetch.NewFailRequestArgs(ev.RequestID, network.ErrorReasonBlockedByClient)); err != nil {
		w.log.Printf("fail request: %v", err)
	}
}

// egressDenied is the error of an operation that a refused request ends.
func egressDenied(op string, blocked []transport.Blocked, mut transport.MutationState, before bool) error {
	msg := "the page requested an origin outside the policy"
	if len(blocked) > 0 {
		msg = "the page requested " + blocked[0].Origin + " (" + blocked[0].Kind + "), outside the policy"
		if len(blocked) > 1 {
			msg += ", and more"
		}
	}
	phase := transport.PhaseExecute
	if before {
		msg += ", since the previous operation; nothing was done"
		phase = transport.PhasePolicy
	}
	retry := transport.RetryNever
	if mut == transport.Unknown {
		retry = transport.RetryUnsafe
	}
	oe := transport.NewError(op, phase, transport.CodeEgressDenied, retry, mut, "%s", msg)
	oe.Blocked = blocked
	return oe
}
