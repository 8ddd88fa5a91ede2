package scenario

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TraceMode is `run --trace`: which scenarios keep a step trace (Playwright's trace option).
type TraceMode string

const (
	// TraceOff records nothing.
	TraceOff TraceMode = "off"
	// TraceOn keeps every attempt's trace.
	TraceOn TraceMode = "on"
	// TraceOnFailure (the CLI's default) records every attempt and keeps only the trace of a
	// scenario whose final result did not pass: its last attempt's.
	TraceOnFailure TraceMode = "on-failure"
	// TraceRetainOnFailure records every attempt and keeps the trace of every attempt that
	// did not pass, also the failed first attempt of a scenario that passed on a retry.
	TraceRetainOnFailure TraceMode = "retain-on-failure"
)

// ParseTraceMode reads a --trace or config "trace" value.
func ParseTraceMode(s string) (TraceMode, error) {
	switch m := TraceMode(s); m {
	case TraceOff, TraceOn, TraceOnFailure, TraceRetainOnFailure:
		return m, nil
	}
	return "", fmt.Errorf("trace %q: expected off, on, on-failure or retain-on-failure", s)
}

// TraceStep is one operation of a kept trace: when it ran, how it ended, and what the tab
// showed after it. Artifact paths are relative to the run's artifacts directory
// (DIR/artifacts), like evidence's.
type TraceStep struct {
	Index      int    `json:"index"` // the operation's index in the scenario
	Op         string `json:"op"`
	ID         string `json:"id,omitempty"`
	StartMs    int64  `json:"startMs"` // from the scenario attempt's start
	DurationMs int64  `json:"durationMs"`
	Status     string `json:"status"` // passed | failed
	// Screenshot is the redacted picture after the step; ScreenshotUnavailable says why
	// there is none (its redaction not proven, over the trace budget, not captured).
	Screenshot            *artifacts.Meta `json:"screenshot,omitempty"`
	ScreenshotUnavailable string          `json:"screenshotUnavailable,omitempty"`
	Outline               *artifacts.Meta `json:"outline,omitempty"`
	Console               *artifacts.Meta `json:"console,omitempty"`
	Network               *artifacts.Meta `json:"network,omitempty"`
	// Redaction is the masking's proof for the step's own capture (absent for a failed
	// step, whose parts are its failure evidence: FromEvidence).
	Redaction    *transport.RedactionProof   `json:"redaction,omitempty"`
	FromEvidence bool                        `json:"fromEvidence,omitempty"`
	Unavailable  []transport.UnavailablePart `json:"unavailable,omitempty"` // parts other than the screenshot not kept, and why
	// SameAs: the step passed and could not have changed the tab (unchanging), so it was
	// not captured again: the latest picture and outline, those of the step with this
	// index, stand for it (ScreenshotUnavailable says so). Its console and network
	// summaries are its own.
	SameAs *int `json:"sameAs,omitempty"`
}

// traceCapturer is the part of a *runtime.Runtime a trace needs (a test's fake session has
// none: no trace).
type traceCapturer interface {
	CaptureTrace(ctx context.Context, tab, op string, parts ...string) (*runtime.TraceCapture, error)
}

// A runtime whose CaptureTrace drifted from the interface would silently record no trace.
var _ traceCapturer = (*runtime.Runtime)(nil)

// traceRecorder holds one attempt's steps in memory until the attempt's outcome says whether
// they are kept (keep writes them) or dropped (nothing ever reached the disk).
type traceRecorder struct {
	left  int64 // bytes of the trace budget still free
	steps []recordedStep
	// held are the parts held so far, by kind and content: a part equal to one held already
	// (a picture after an assertion that changed nothing, an empty console summary) costs no
	// budget, and a kept trace writes it once, every step naming the same file.
	held map[partKey]bool
	// picture is the index of the step whose picture is the latest of the tab, or -1 when
	// the latest step kept none (a step not captured then is captured after all).
	picture int
}

func newTraceRecorder() *traceRecorder {
	return &traceRecorder{left: budgets.TraceBytes, picture: -1}
}

type partKey struct {
	kind string
	sum  [sha256.Size]byte
}

func keyOf(p runtime.TracePart) partKey { return partKey{p.Kind, sha256.Sum256(p.Data)} }

type recordedStep struct {
	step  TraceStep
	parts []runtime.TracePart
}

// traceStep records operation i, which started at started and has ended (its report says
// how; res is a passed one's result), when the attempt records a trace. A failed operation's
// failure evidence is its step's parts; a passed one is captured now, but for one that could
// not have changed the tab: its console and network summaries only (a worker call; the
// screenshot's frame is what a capture costs), the latest picture standing for it.
func (s *runState) traceStep(ctx context.Context, rt Session, i int, started time.Time, res transport.Result) {
	tr := s.trace
	c, ok := rt.(traceCapturer)
	if tr == nil || !ok {
		return
	}
	or := &s.rep.Operations[i]
	rs := recordedStep{step: TraceStep{Index: i, Op: or.Op, ID: or.ID, StartMs: started.Sub(s.start).Milliseconds(), DurationMs: or.DurationMs, Status: or.Status}}
	if or.Status == StatusFailed {
		rs.step.FromEvidence = true
		for k := range or.Evidence {
			rs.step.setPart(or.Evidence[k])
		}
		rs.step.unavailable(or.EvidenceUnavailable)
		if rs.step.Screenshot == nil && rs.step.ScreenshotUnavailable == "" {
			rs.step.ScreenshotUnavailable = "no failure evidence was captured"
		}
		tr.picture = -1
		if rs.step.Screenshot != nil {
			tr.picture = i
		}
		tr.steps = append(tr.steps, rs)
		return
	}
	if tr.picture >= 0 && unchanging(or.Op, res) {
		n := tr.picture
		rs.step.SameAs = &n
		rs.step.ScreenshotUnavailable = fmt.Sprintf("not captured: a passed %s does not change the page; the latest picture is step #%d's", or.Op, n)
		tc, err := c.CaptureTrace(ctx, "", or.Op, transport.PartConsole, transport.PartNetwork)
		if err != nil {
			oe := transport.AsOperationError("", err)
			for _, p := range []string{transport.PartConsole, transport.PartNetwork} {
				rs.step.Unavailable = append(rs.step.Unavailable, transport.UnavailablePart{Part: p, Code: oe.Code, Message: "the step could not be captured"})
			}
		} else {
			rs.parts, tc.Unavailable = tr.fit(tc.Parts, tc.Unavailable)
			rs.step.unavailable(tc.Unavailable)
		}
		tr.steps = append(tr.steps, rs)
		return
	}
	tr.picture = -1
	tc, err := c.CaptureTrace(ctx, "", or.Op)
	if err != nil {
		oe := transport.AsOperationError("", err)
		rs.step.ScreenshotUnavailable = fmt.Sprintf("%s: the step could not be captured", oe.Code)
		tr.steps = append(tr.steps, rs)
		return
	}
	rs.step.Redaction = tc.Redaction
	rs.parts, tc.Unavailable = tr.fit(tc.Parts, tc.Unavailable)
	rs.step.unavailable(tc.Unavailable)
	if slices.ContainsFunc(rs.parts, func(p runtime.TracePart) bool { return p.Kind == transport.PartScreenshot }) {
		tr.picture = i
	}
	tr.steps = append(tr.steps, rs)
}

// unchanging says whether a passed operation leaves the tab a trace captures (the selected
// one) as the latest capture showed it, as far as the operation goes: it does not change a
// page (the operation table's Mutates: assert, read, observe, listTabs, waitPopup, extract,
// screenshot, narrowOriginPolicy) nor which tab is selected (selectTab does), and an
// assertion held at its first look (one that held only after more looks saw the page change
// while it waited: it is captured). A wait is always captured: it waits for the page to
// change (a load state, a URL), so the page it ends on is rarely the one before it. A page
// that changes by itself (a timer, an animation)
// shows so only at the next capture.
func unchanging(op string, res transport.Result) bool {
	spec, ok := transport.LookupOp(op)
	if !ok || spec.Mutates || op == transport.OpSelectTab || op == transport.OpWait {
		return false
	}
	if a, ok := res.(*transport.AssertResult); ok && a.Attempts > 1 {
		return false
	}
	return true
}

// fit keeps the parts that fit in what is left of the trace budget, in order, and lists the
// others as unavailable.
func (tr *traceRecorder) fit(parts []runtime.TracePart, miss []transport.UnavailablePart) ([]runtime.TracePart, []transport.UnavailablePart) {
	var kept []runtime.TracePart
	for _, p := range parts {
		k := keyOf(p)
		if tr.held[k] {
			kept = append(kept, p)
			continue
		}
		if n := int64(len(p.Data)); n > tr.left {
			miss = append(miss, transport.UnavailablePart{Part: p.Kind, Code: transport.CodeArtifactTooLarge,
				Message: fmt.Sprintf("over the trace budget (%d MiB per scenario attempt): not kept", budgets.TraceBytes>>20)})
			continue
		}
		tr.left -= int64(len(p.Data))
		if tr.held == nil {
			tr.held = map[partKey]bool{}
		}
		tr.held[k] = true
		kept = append(kept, p)
	}
	return kept, miss
}

// unavailable notes parts not kept: the screenshot's reason on ScreenshotUnavailable.
func (st *TraceStep) unavailable(miss []transport.UnavailablePart) {
	for _, u := range miss {
		if u.Part == transport.PartScreenshot {
			st.ScreenshotUnavailable = string(u.Code) + ": " + u.Message
			continue
		}
		st.Unavailable = append(st.Unavailable, u)
	}
}

func (st *TraceStep) setPart(m artifacts.Meta) {
	switch m.Kind {
	case transport.PartScreenshot:
		st.Screenshot = &m
	case transport.PartOutline:
		st.Outline = &m
	case transport.PartConsole:
		st.Console = &m
	case transport.PartNetwork:
		st.Network = &m
	}
}

// keepsTrace says whether this attempt's trace is kept, now that its status is known.
func (s *runState) keepsTrace(ctxEnded bool) bool {
	passed := s.rep.Status == StatusPassed
	switch s.env.Trace {
	case TraceOn:
		return true
	case TraceRetainOnFailure:
		return !passed
	case TraceOnFailure:
		// Only the final result: a failure that a retry follows is not kept.
		return !passed && (s.env.FinalAttempt || !retryable(s.rep.Status) || ctxEnded)
	}
	return false
}

// finishTrace writes a kept trace to the scenario's store, under the attempt's run directory
// plus ".trace" (apart from its evidence), and lists it on the report; a dropped one is let
// go. A part the store refuses is listed unavailable.
func (s *runState) finishTrace(ctxEnded bool) {
	tr := s.trace
	s.trace = nil
	if tr == nil || !s.keepsTrace(ctxEnded) || s.env.Store == nil {
		return
	}
	dir := s.env.RunID + ".trace"
	steps := make([]TraceStep, 0, len(tr.steps))
	written := map[partKey]artifacts.Meta{} // a part equal to one written is not written again
	for _, rs := range tr.steps {
		st := rs.step
		for _, p := range rs.parts {
			k := keyOf(p)
			meta, ok := written[k]
			if !ok {
				var err error
				meta, err = s.env.Store.Put(dir, s.l.ID, p.Kind, p.Data, p.Truncated)
				if err != nil {
					st.unavailable([]transport.UnavailablePart{{Part: p.Kind, Code: storeFailureCode(err), Message: "could not be written to the artifact store: " + artifacts.Cause(err)}})
					continue
				}
				written[k] = meta
			}
			st.setPart(meta)
		}
		steps = append(steps, st)
	}
	s.rep.Trace = steps
}

// storeFailureCode: a part that did not fit on disk is artifact_too_large, as the runtime
// says of evidence; any other store failure is internal.
func storeFailureCode(err error) transport.Code {
	if artifacts.NoRoom(err) || errors.Is(err, artifacts.ErrTooLarge) {
		return transport.CodeArtifactTooLarge
	}
	return transport.CodeInternal
}
