package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
	"github.com/fastbrowser/fastbrowser/transport/textclip"
)

// Handler executes decoded, validated operations. Serve calls it for one request at a time,
// in arrival order (per session with ServerOptions.SessionLanes); ctx ends when the request is cancelled or the server stops.
type Handler interface {
	Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error)
}

// ServerOptions configures Serve.
type ServerOptions struct {
	Ready transport.ReadyInfo
	// MaxQueued bounds requests waiting behind the running one; past it a request is
	// refused with session_busy (0 means 64).
	MaxQueued int
	// SessionLanes is for a multi-session host (runtime/registry): each session a frame
	// names gets a lane of its own, so sessions run in parallel. Without it (one session, a
	// worker) every request runs in the one lane in arrival order, whatever session a frame
	// names, as the Handler contract says.
	SessionLanes bool
	// Internal accepts the operations a session's runtime sends its worker (OpSpec.Internal):
	// the worker's Server sets it; a session's refuses them as unknown.
	Internal bool
}

// Serve speaks protocol v1 on in/out until in ends, ctx ends, or a close operation has been
// answered. It writes the ready frame first. A malformed, oversized or unknown line gets an
// error frame and the loop goes on: a bad line from a parent never ends the server.
func Serve(ctx context.Context, in io.Reader, out io.Writer, h Handler, opts ServerOptions) error {
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = 64
	}
	s := &server{
		f:         newFrameConn(in, out),
		h:         h,
		maxQueued: opts.MaxQueued,
		byLane:    opts.SessionLanes,
		internal:  opts.Internal,
		lanes:     map[string]chan *job{},
		pending:   map[string]*job{},
		closed:    make(chan struct{}),
	}
	if err := s.f.sendReady(opts.Ready); err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	s.ctx = ctx
	execDone := make(chan struct{})
	defer func() { <-execDone }()

	lines := make(chan error, 1)
	go func() { lines <- s.readLoop(ctx) }()
	var err error
	select {
	case err = <-lines:
		// Input ended: let queued work finish (each request is bounded by its own budget).
		s.shutLanes()
	case <-s.closed: // a close op was answered
		stop()
	case <-ctx.Done():
	}
	// No lane starts after this (a frame read as ctx ended): lanesRunning.Add never races
	// the Wait, and no request is left in a lane nobody runs.
	s.mu.Lock()
	s.queueShut = true
	s.mu.Unlock()
	go func() { s.lanesRunning.Wait(); close(execDone) }()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}

type job struct {
	id     string
	owner  transport.Owner // the frame's session and task (a multi-session host's)
	op     transport.Operation
	octx   *transport.OperationContext
	budget time.Duration // the frame's timeoutMs; 0: none given
	ctx    context.Context
	cancel context.CancelFunc
}

type server struct {
	f         *frameConn
	h         Handler
	ctx       context.Context
	maxQueued int
	byLane    bool // SessionLanes
	internal  bool // ServerOptions.Internal

	// lanes run requests one at a time each, in arrival order: one lane per session a
	// frame names (a multi-session host's sessions run in parallel), and the "" lane for
	// frames that name none (a single session: everything in order). Bounded: past
	// maxLanes a new session's requests share the "" lane. A session lane ends when it
	// has nothing queued (retire).
	lanes        map[string]chan *job
	lanesRunning sync.WaitGroup

	mu        sync.Mutex
	pending   map[string]*job // queued or running, by id
	closeOnce sync.Once
	closed    chan struct{}
	queueShut bool
}

func (s *server) readLoop(ctx context.Context) error {
	for {
		line, err := s.f.readLine()
		var tooLong *jsonl.LineTooLongError
		var torn *jsonl.TornFrameError
		switch {
		case errors.As(err, &tooLong):
			s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted,
				"line %d is longer than %d bytes and was discarded", tooLong.Line, tooLong.Limit))
			continue
		case errors.As(err, &torn):
			s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted,
				"input ended inside a frame on line %d", torn.Line))
			continue
		case err != nil:
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		if isBlank(line) {
			continue // a blank line carries nothing; tolerate it from hand-written parents
		}
		s.handleLine(line)
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// handleLine routes one line by v/id/op/cancel with gjson before the strict decode, so an
// error frame can carry the id even when the rest of the frame is bad.
func (s *server) handleLine(line []byte) {
	if !utf8.Valid(line) {
		s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted, "frame is not valid UTF-8"))
		return
	}
	// gjson and the strict decoder recurse: the depth is checked first, iteratively, so no
	// line within the size limit can overflow the stack.
	if strictjson.CheckDepth(line) != nil {
		s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted,
			"frame nests arrays and objects more than %d levels deep and was not parsed", budgets.JSONNesting))
		return
	}
	if !gjson.ValidBytes(line) {
		s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted, "frame is not valid JSON"))
		return
	}
	if !gjson.ParseBytes(line).IsObject() {
		s.replyError("", transport.NewError("", transport.PhaseValidate, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted, "frame is not a JSON object"))
		return
	}
	idv := gjson.GetBytes(line, "id")
	id := ""
	if idv.Type == gjson.String && len(idv.Str) <= transport.MaxIDLen {
		id = idv.Str
	}
	opName := gjson.GetBytes(line, "op").Str
	if v := gjson.GetBytes(line, "v"); v.Type != gjson.Number || v.Raw != "1" {
		s.replyError(id, transport.Invalid(opName, "v", "expected protocol version 1"))
		return
	}
	if gjson.GetBytes(line, "cancel").Exists() {
		var cf transport.CancelFrame
		if err := strictjson.Decode(line, &cf); err != nil {
			s.replyError("", frameError(opName, err))
			return
		}
		s.cancel(cf.Cancel)
		return
	}
	var rf transport.RequestFrame
	if err := strictjson.Decode(line, &rf); err != nil {
		s.replyError(id, frameError(opName, err))
		return
	}
	if rf.ID == "" || len(rf.ID) > transport.MaxIDLen {
		s.replyError("", transport.Invalid(rf.Op, "id", "expected a non-empty string of at most %d bytes", transport.MaxIDLen))
		return
	}
	op, ok := transport.NewOperation(rf.Op)
	if !ok || transport.SpecOf(op).Internal && !s.internal {
		s.replyError(rf.ID, transport.Invalid(rf.Op, "op", "unknown operation %q", textclip.Clip(rf.Op, 64)))
		return
	}
	raw := rf.Request
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if err := strictjson.DecodeAt(raw, op, "request"); err != nil {
		s.replyError(rf.ID, frameError(rf.Op, err))
		return
	}
	if err := transport.Validate(op); err != nil {
		s.replyFailure(rf.ID, rf.Op, err)
		return
	}
	var budget time.Duration
	if rf.TimeoutMs != 0 {
		var err error
		if budget, err = transport.ResolveTimeout(rf.Op, time.Duration(rf.TimeoutMs)*time.Millisecond); err != nil {
			s.replyError(rf.ID, transport.AsOperationError(rf.Op, err))
			return
		}
	}
	s.enqueue(&job{id: rf.ID, op: op, octx: rf.Context, budget: budget, owner: transport.Owner{Session: rf.Session, Task: rf.Task}})
}

// frameError turns a strict-decoding refusal into invalid_request with the JSON path.
func frameError(op string, err error) *transport.OperationError {
	var se *strictjson.Error
	if errors.As(err, &se) {
		return transport.Invalid(op, se.Path, "%s", se.Message)
	}
	return transport.Invalid(op, "", "malformed frame")
}

func (s *server) enqueue(j *job) {
	s.mu.Lock()
	if _, dup := s.pending[j.id]; dup {
		s.mu.Unlock()
		// No id on this refusal: a frame with that id is the in-flight request's answer,
		// which the parent still gets, once.
		s.replyError("", transport.Invalid(j.op.OpName(), "id", "request id %q is already in flight; this request was not queued", j.id))
		return
	}
	if s.queueShut {
		s.mu.Unlock()
		s.replyError(j.id, transport.NewError(j.op.OpName(), transport.PhaseDispatch, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the session is closing"))
		return
	}
	j.ctx, j.cancel = context.WithCancel(context.Background())
	select {
	case s.lane(s.laneOf(j)) <- j:
		s.pending[j.id] = j
		s.mu.Unlock()
	default:
		s.mu.Unlock()
		j.cancel()
		s.replyError(j.id, transport.NewError(j.op.OpName(), transport.PhaseDispatch, transport.CodeSessionBusy, transport.RetrySafe, transport.NotAttempted, "too many requests queued"))
	}
}

func (s *server) cancel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j, ok := s.pending[id]; ok {
		j.cancel()
	}
}

// lane returns the queue of session's lane, starting it if it is new (under s.mu).
func (s *server) lane(session string) chan *job {
	if q, ok := s.lanes[session]; ok {
		return q
	}
	if len(s.lanes) >= maxLanes {
		session = ""
		if q, ok := s.lanes[session]; ok {
			return q
		}
	}
	q := make(chan *job, s.maxQueued)
	s.lanes[session] = q
	s.lanesRunning.Add(1)
	go func() { defer s.lanesRunning.Done(); s.execute(s.ctx, session, q) }()
	return q
}

// laneOf is the lane j runs in: its session's on a multi-session host, else the one lane.
func (s *server) laneOf(j *job) string {
	if !s.byLane {
		return ""
	}
	return j.owner.Session
}

// maxLanes bounds the lanes running at once on one connection.
const maxLanes = 256

// shutLanes ends every lane once its queued work is done (input ended).
func (s *server) shutLanes() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queueShut = true
	for _, q := range s.lanes {
		close(q)
	}
}

func (s *server) execute(ctx context.Context, key string, queue chan *job) {
	for {
		var j *job
		var ok bool
		select {
		case j, ok = <-queue:
			if !ok {
				return
			}
		case <-ctx.Done():
			s.drainQueue(queue)
			return
		}
		s.run(ctx, j)
		// A close ends one session's connection; a multi-session host refuses it, and one
		// task's close must not end every other task's sessions.
		if transport.SpecOf(j.op).EndsSession && !s.byLane {
			s.mu.Lock()
			s.queueShut = true
			s.mu.Unlock()
			s.drainQueue(queue)
			s.closeOnce.Do(func() { close(s.closed) })
			return
		}
		if s.byLane && s.retire(key, queue) {
			return
		}
	}
}

// retire ends an idle session lane, so maxLanes bounds the lanes running at once, not the
// sessions a connection has ever named: a closed session's lane is not kept, and frames
// naming made-up sessions cannot use up the lanes and put every later session in one.
// Under s.mu, like enqueue: a request for key after this starts a new lane.
func (s *server) retire(key string, queue chan *job) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(queue) > 0 || s.queueShut {
		return false
	}
	delete(s.lanes, key)
	return true
}

// drainQueue answers every request still queued in a lane when the server stops.
func (s *server) drainQueue(queue chan *job) {
	for {
		select {
		case j, ok := <-queue:
			if !ok {
				return
			}
			s.finish(j, nil, transport.NewError(j.op.OpName(), transport.PhaseDispatch, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the session ended before this request ran"))
		default:
			return
		}
	}
}

func (s *server) run(ctx context.Context, j *job) {
	if j.ctx.Err() != nil {
		s.finish(j, nil, transport.NewError(j.op.OpName(), transport.PhaseDispatch, transport.CodeCancelled, transport.RetrySafe, transport.NotAttempted, "cancelled before it started"))
		return
	}
	// The request ends with its cancel frame (j.ctx) or with the server (ctx).
	rctx, stop := context.WithCancel(j.ctx)
	defer stop()
	if j.budget > 0 {
		rctx = transport.WithRequestBudget(rctx, j.budget)
	}
	if j.owner != (transport.Owner{}) {
		rctx = transport.WithOwner(rctx, j.owner)
	}
	// A hosted task (beginTask) reports as it runs, after this request was answered.
	rctx = transport.WithEvents(rctx, s.event)
	unhook := context.AfterFunc(ctx, stop)
	defer unhook()
	res, err := s.handle(rctx, j)
	s.finish(j, res, err)
}

// handle calls the handler and turns a panic into an internal error, so one bad request
// never takes the server (and every other request) down with it.
func (s *server) handle(ctx context.Context, j *job) (res transport.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, transport.NewError(j.op.OpName(), transport.PhaseExecute, transport.CodeInternal, transport.RetryUnsafe, transport.Unknown, "the worker failed while running the operation").
				WithCause(fmt.Errorf("panic: %v", p))
		}
	}()
	return s.h.Handle(ctx, j.op, j.octx)
}

func (s *server) finish(j *job, res transport.Result, err error) {
	s.mu.Lock()
	delete(s.pending, j.id)
	s.mu.Unlock()
	j.cancel()
	if err != nil {
		s.replyFailure(j.id, j.op.OpName(), err)
		return
	}
	// The result is encoded once, straight into its frame (sendResult).
	var encErr *jsonl.EncodeError
	if err := s.f.sendResult(j.id, res); errors.As(err, &encErr) {
		s.replyError(j.id, transport.NewError(j.op.OpName(), transport.PhaseExecute, transport.CodeInternal, transport.RetryNever, transport.Unknown, "result could not be encoded"))
	}
}

// event writes a task event frame between answers; once the connection is gone it is
// dropped (the task's accounting keeps it for finishTask).
func (s *server) event(e transport.TaskEvent) {
	_ = s.f.sendEvent(e)
}

func (s *server) replyError(id string, oe *transport.OperationError) {
	s.replyFailure(id, oe.Operation, oe)
}

// replyFailure writes op's failure with the evidence kept beside it, inside the error object.
func (s *server) replyFailure(id, op string, err error) {
	_ = s.f.sendFailure(id, op, err)
}
