// Package registry is the multi-session host behind `fastbrowser serve --binding-origin …`
// (issue 13, seed "Browser Session Contract"): many sessions over one protocol v1
// connection, in one browser with a context each. A session id is owned by the task that
// opened it: another task's request is session_not_owned, one past its idle timeout
// session_expired, one closed or ended session_ended, an unknown id session_not_found. An
// ended id is never reopened, and nothing earlier is replayed into a new context.
// Narrowing is deny by default: a session's origins are a non-empty subset of the binding.
// A Config (config.go: fastbrowser.json's "session" block) sets what an openSession leaves
// out, the most it may ask for, and a bound on every call.
//
// The Host is a wire.Handler; wire.Serve gives each session its own lane, so
// distinct sessions run in parallel while calls within one are serialised.
package registry

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Options configures a Host.
type Options struct {
	// Binding is the host's binding: ["*"] or exact origins; every session's origins must
	// lie inside it.
	Binding []string
	// Session is the template every session is opened with (the Allocator, worker, log,
	// evidence store, …); AllowedOrigins and Redaction are the session's own.
	Session runtime.Options
	// Config is the session block of the host's config (config.go): what an openSession
	// leaves out, the most it may ask for, and every call's bound. nil: the budgets' own.
	Config *Config
	// OnEnd, if set, is told each session's end as it happens (why: closed, task ended,
	// expired, crashed), after its id is refused and before its context is stopped. The
	// conformance suite waits on it for an idle expiry instead of sleeping; `serve` writes it
	// to the debug log (FASTBROWSER_DEBUG), where its tests wait on it.
	OnEnd func(session, why string)
}

// Host is the registry of one serve's sessions.
type Host struct {
	binding policy.Policy
	opts    Options

	mu       sync.Mutex
	sessions map[string]*session
	next     int
	closed   bool
}

type session struct {
	id, task  string
	rt        *runtime.Runtime
	idle      time.Duration
	handoff   map[string]bool
	pageText  transport.PageTextBudgets
	lastUsed  time.Time
	ended     string // "": live; else why: closed, ended (endTask), expired
	endedAt   time.Time
	done      chan struct{} // closed when ended is set (markEnded): the idle watch stops
	enforceBy []string
	inflight  int // requests running (under Host.mu): a session is never expired mid-call
}

// New returns a Host for opts.Binding.
func New(opts Options) (*Host, error) {
	b, err := policy.Parse(opts.Binding)
	if err != nil {
		return nil, transport.Invalid("", "bindingOrigins", "%s", err.Error())
	}
	if err := opts.Config.Check(); err != nil {
		return nil, transport.Invalid("", "session."+err.(*ConfigError).Field, "%s", err.(*ConfigError).Expected)
	}
	return &Host{binding: b, opts: opts, sessions: map[string]*session{}}, nil
}

// hostAnswers are the host's own operations (OpSpec.Host) that act on the host, not inside
// one session; batch, the other Host row, runs in the session its frame names (Handle).
var hostAnswers = map[string]func(h *Host, ctx context.Context, op transport.Operation) (transport.Result, error){
	transport.OpOpenSession: func(h *Host, ctx context.Context, op transport.Operation) (transport.Result, error) {
		return h.open(ctx, op.(*transport.OpenSession))
	},
	transport.OpCloseSession: func(h *Host, _ context.Context, op transport.Operation) (transport.Result, error) {
		return h.closeOne(op.(*transport.CloseSession))
	},
	transport.OpEndTask: func(h *Host, _ context.Context, op transport.Operation) (transport.Result, error) {
		return h.endTask(op.(*transport.EndTask))
	},
}

// Handle answers one request: the host's own operations, or one of a session's, after the
// frame's session and task are checked.
func (h *Host) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if answer, ok := hostAnswers[op.OpName()]; ok {
		return answer(h, ctx, op)
	}
	if op.OpName() == transport.OpClose {
		return nil, transport.Invalid(transport.OpClose, "op", "a multi-session host closes sessions with closeSession and tasks with endTask; close the connection to end the host")
	}
	s, err := h.owned(op.OpName(), transport.OwnerOf(ctx))
	if err != nil {
		return nil, err
	}
	defer h.touch(s)
	if d := h.opts.Config.requestTimeout(); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	if b, ok := op.(*transport.Batch); ok {
		return h.batch(ctx, s, b)
	}
	if ob, ok := op.(*transport.Observe); ok {
		s.applyPageText(ob)
	}
	res, err := s.rt.Call(ctx, op, octx)
	h.noteCrash(s, err)
	return res, err
}

// Close ends every session (the connection ended).
func (h *Host) Close() error {
	h.mu.Lock()
	h.closed = true
	var live []*session
	for _, s := range h.sessions {
		if s.ended == "" {
			s.markEnded("closed")
			live = append(live, s)
		}
	}
	h.mu.Unlock()
	var first error
	for _, s := range live {
		h.told(s, "closed")
		if err := s.rt.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (h *Host) open(ctx context.Context, r *transport.OpenSession) (transport.Result, error) {
	if len(r.AllowedOrigins) == 0 {
		// Deny by default here too, not only in the wire's decoding: a session with no
		// origins would be a runtime with no policy, which allows every origin.
		return nil, transport.Invalid(transport.OpOpenSession, "request.allowedOrigins", "expected at least one origin inside the binding %v", h.binding.Origins())
	}
	for i, o := range r.AllowedOrigins {
		path := "request.allowedOrigins[" + strconv.Itoa(i) + "]"
		if o == policy.Any {
			if !h.binding.IsAny() {
				return nil, transport.Invalid(transport.OpOpenSession, path, "\"*\" is wider than the binding %v", h.binding.Origins())
			}
			continue
		}
		norm, err := policy.NormalizeOrigin(o)
		if err != nil {
			return nil, transport.Invalid(transport.OpOpenSession, path, "expected an exact http or https origin without credentials, path, query or fragment")
		}
		if !h.binding.AllowsOrigin(norm) {
			return nil, transport.Invalid(transport.OpOpenSession, path, "origin %s is outside the binding %v", norm, h.binding.Origins())
		}
	}
	pageText, err := h.pageTextOf(r)
	if err != nil {
		return nil, err
	}
	idle := time.Duration(r.IdleTimeoutS) * time.Second
	if idle == 0 {
		idle = h.opts.Config.idleDefault()
	}
	if ceiling := h.opts.Config.idleCeiling(); idle > time.Duration(ceiling)*time.Second {
		return nil, transport.NewError(transport.OpOpenSession, transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted,
			"idleTimeoutS %d is over the ceiling of %d", r.IdleTimeoutS, ceiling).WithPath("request.idleTimeoutS")
	}
	handoff := r.HandoffClasses
	if handoff == nil {
		handoff = h.opts.Config.handoffDefault()
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, transport.NewError(transport.OpOpenSession, transport.PhaseDispatch, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the host is closing")
	}
	h.next++
	id := "s" + strconv.Itoa(h.next)
	h.mu.Unlock()

	opts := h.opts.Session
	opts.AllowedOrigins = r.AllowedOrigins
	if opts.Evidence != nil { // the session owns its evidence, with its own rules added
		ev := *opts.Evidence
		ev.Redaction = append(append([]transport.RedactionRule(nil), ev.Redaction...), r.Redaction...)
		ev.Owner = id
		opts.Evidence = &ev
	}
	opts.HandoffClasses = r.HandoffClasses // a hosted task stops on them as a batch does
	rt, err := runtime.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	s := &session{id: id, task: r.Task, rt: rt, idle: idle, handoff: map[string]bool{}, pageText: pageText, lastUsed: time.Now(), enforceBy: rt.Enforcement(), done: make(chan struct{})}
	for _, c := range handoff {
		s.handoff[c] = true
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		_ = rt.Close()
		return nil, transport.NewError(transport.OpOpenSession, transport.PhaseDispatch, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the host is closing")
	}
	h.sessions[id] = s
	h.mu.Unlock()
	go h.expireWhenIdle(s)
	return &transport.OpenSessionResult{Session: id, Task: r.Task, AllowedOrigins: r.AllowedOrigins, IdleTimeoutS: int(idle.Seconds()), Enforcement: s.enforceBy}, nil
}

// pageTextOf is the session's page_text budgets: the request's, each field it leaves out
// the config's, and none over the config's ceilings (budget_exceeded, never clamped).
func (h *Host) pageTextOf(r *transport.OpenSession) (transport.PageTextBudgets, error) {
	out := h.opts.Config.pageTextDefault()
	if r.PageText == nil {
		return out, nil
	}
	ceil := h.opts.Config.pageTextCeilings()
	for _, f := range []struct {
		name    string
		dst     *int
		v, ceil int
	}{{"maxNodes", &out.MaxNodes, r.PageText.MaxNodes, ceil.MaxNodes}, {"maxDepth", &out.MaxDepth, r.PageText.MaxDepth, ceil.MaxDepth}, {"maxTextChars", &out.MaxTextChars, r.PageText.MaxTextChars, ceil.MaxTextChars}} {
		switch {
		case f.v < 0 || f.v > f.ceil:
			return out, transport.NewError(transport.OpOpenSession, transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted,
				"pageText.%s %d: expected 0 to %d (the host's ceiling)", f.name, f.v, f.ceil).WithPath("request.pageText." + f.name)
		case f.v > 0:
			*f.dst = f.v
		}
	}
	return out, nil
}

// owned is the live session the frame names, if the frame's task owns it.
func (h *Host) owned(op string, o transport.Owner) (*session, error) {
	if o.Session == "" || o.Task == "" {
		return nil, transport.Invalid(op, "session", "a request to a multi-session host names its session and task in the frame: {\"v\":1,\"id\":…,\"session\":…,\"task\":…,\"op\":…}")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[o.Session]
	switch {
	case !ok:
		return nil, sessionError(op, transport.CodeSessionNotFound, "no session %q on this host", textclip.Clip(o.Session, 32))
	case s.task != o.Task:
		return nil, sessionError(op, transport.CodeSessionNotOwned, "session %s is owned by another task", s.id)
	case s.ended == "expired":
		return nil, sessionError(op, transport.CodeSessionExpired, "session %s expired after %s without a request; open a new one (nothing is replayed)", s.id, s.idle)
	case s.ended != "":
		return nil, sessionError(op, transport.CodeSessionEnded, "session %s has ended (%s); its id is never reopened", s.id, s.ended)
	case time.Since(s.lastUsed) > s.idle:
		// The idle end may not have run yet: the request must not revive the session.
		return nil, sessionError(op, transport.CodeSessionExpired, "session %s expired after %s without a request; open a new one (nothing is replayed)", s.id, s.idle)
	}
	s.lastUsed = time.Now()
	s.inflight++
	return s, nil
}

func sessionError(op string, code transport.Code, format string, args ...any) error {
	return transport.NewError(op, transport.PhaseValidate, code, transport.RetryNever, transport.NotAttempted, format, args...)
}

// touch renews the session's idle deadline after a request.
func (h *Host) touch(s *session) {
	h.mu.Lock()
	s.lastUsed = time.Now()
	s.inflight--
	h.mu.Unlock()
}

// expireWhenIdle ends the session once it has had no request for its idle timeout. It
// sleeps until the deadline its last request set, looks again (a request since has moved
// the deadline on), and stops as soon as the session ends another way.
func (h *Host) expireWhenIdle(s *session) {
	timer := time.NewTimer(s.idle)
	defer timer.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-timer.C:
		}
		h.mu.Lock()
		if s.ended != "" {
			h.mu.Unlock()
			return
		}
		wait := s.idle - time.Since(s.lastUsed)
		if s.inflight > 0 {
			wait = s.idle // a request runs: its end renews the deadline
		}
		if wait > 0 {
			h.mu.Unlock()
			timer.Reset(wait)
			continue
		}
		s.markEnded("expired")
		h.mu.Unlock()
		h.told(s, "expired")
		_ = s.rt.Close()
		return
	}
}

// markEnded records why the session ended and stops its idle watch. Call with Host.mu held,
// once (ended == "").
func (s *session) markEnded(why string) {
	s.ended, s.endedAt = why, time.Now()
	close(s.done)
}

func (h *Host) closeOne(r *transport.CloseSession) (transport.Result, error) {
	s, err := h.owned(transport.OpCloseSession, transport.Owner{Session: r.Session, Task: r.Task})
	if err != nil {
		return nil, err
	}
	h.touch(s)
	h.end(s, "closed")
	return &transport.CloseSessionResult{Session: s.id, Closed: true}, nil
}

func (h *Host) endTask(r *transport.EndTask) (transport.Result, error) {
	h.mu.Lock()
	var mine []*session
	for _, s := range h.sessions {
		if s.task == r.Task && s.ended == "" {
			mine = append(mine, s)
		}
	}
	h.mu.Unlock()
	out := &transport.EndTaskResult{Task: r.Task, Closed: []string{}}
	for _, s := range mine {
		h.end(s, "task ended")
		out.Closed = append(out.Closed, s.id)
	}
	return out, nil
}

// end marks a session ended and stops its browser context.
func (h *Host) end(s *session, why string) {
	h.mu.Lock()
	if s.ended != "" {
		h.mu.Unlock()
		return
	}
	s.markEnded(why)
	h.mu.Unlock()
	h.told(s, why)
	_ = s.rt.Close()
}

// told tells Options.OnEnd that s ended.
func (h *Host) told(s *session, why string) {
	if h.opts.OnEnd != nil {
		h.opts.OnEnd(s.id, why)
	}
}

// noteCrash ends a session whose worker or browser died.
func (h *Host) noteCrash(s *session, err error) {
	oe := transport.AsOperationError("", err)
	if err != nil && (oe.Code == transport.CodeWorkerCrashed || oe.Code == transport.CodeBrowserCrashed) {
		h.end(s, "crashed")
	}
}

func (s *session) applyPageText(ob *transport.Observe) {
	if ob.MaxNodes == 0 {
		ob.MaxNodes = s.pageText.MaxNodes
	}
	if ob.MaxDepth == 0 {
		ob.MaxDepth = s.pageText.MaxDepth
	}
	if ob.MaxTextChars == 0 {
		ob.MaxTextChars = s.pageText.MaxTextChars
	}
}

// WorkerPid is the pid of the worker serving a session (0 when there is no such session),
// for a caller that checks processes are gone after the session ends (the conformance
// suite's no-process-left).
func (h *Host) WorkerPid(session string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.sessions[session]; ok {
		return s.rt.WorkerPid()
	}
	return 0
}

// BindingIsAny reports whether the host's binding is "*".
func (h *Host) BindingIsAny() bool { return h.binding.IsAny() }
