package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// ConnOptions says how a Conn waits for its peer and what it tells its owner.
type ConnOptions struct {
	// ReadyTimeout bounds the wait for the ready frame (0: budgets.WorkerReady() default).
	ReadyTimeout time.Duration
	// Gone says why the peer is gone once its output ended cleanly (EOF): the message of
	// the worker_crashed error every pending and later call gets. It is called once, from
	// the reader, and may block until it knows (the runtime waits for the worker's exit to
	// say "the worker exited (signal: killed)"). Nil: "the worker closed its output".
	Gone func() string
	// Broken, when set, is called once (on its own goroutine) when the peer broke the
	// protocol, so that its owner can stop it: a Conn owns no process.
	Broken func()
}

// Conn speaks protocol v1 to one worker over a pair of byte streams: frames in from a
// reader, frames out to a writer. It owns the calls (ids, pending waits, deadlines, cancel
// frames), not whatever is behind the streams: package runtime starts the worker process
// and wraps its stdio in a Conn. Calls may be concurrent; the worker runs them in arrival
// order.
type Conn struct {
	f      *frameConn
	closer io.Closer
	ready  transport.ReadyInfo
	next   atomic.Uint64
	gone   func() string
	broken func()

	mu            sync.Mutex
	pending       map[string]*waiter
	dead          *transport.OperationError // set once the worker is gone, broke the protocol or was closed
	deadCh        chan struct{}
	closing       bool // Close began, or the worker answered close: the end of its output is expected, not a crash
	answeredClose bool // the worker answered close: Close sends no second one

	closeOnce sync.Once
	closeErr  error
}

// NewConn waits for the worker's ready frame on r within the worker-readiness budget, then
// reads responses from r until it ends. The Conn writes frames to w and closes it on Close.
// On failure it closes w; r stays the caller's to end (a read of the ready frame may still
// be blocked on it, as it is until the worker process is stopped).
func NewConn(ctx context.Context, r io.Reader, w io.WriteCloser, opts ConnOptions) (*Conn, error) {
	c := &Conn{
		f:       newFrameConn(r, w),
		closer:  w,
		gone:    opts.Gone,
		broken:  opts.Broken,
		pending: map[string]*waiter{},
		deadCh:  make(chan struct{}),
	}
	if c.gone == nil {
		c.gone = func() string { return "the worker closed its output" }
	}
	if c.broken == nil {
		c.broken = func() {}
	}
	if err := c.awaitReady(ctx, opts.ReadyTimeout); err != nil {
		_ = w.Close()
		return nil, err
	}
	go c.readLoop()
	return c, nil
}

func (c *Conn) awaitReady(ctx context.Context, want time.Duration) error {
	readyIn, err := budgets.WorkerReady().Resolve(want)
	if err != nil {
		return transport.NewError("", transport.PhaseValidate, transport.CodeBudgetExceeded, transport.RetryNever, transport.NotAttempted, "%s", err.Error())
	}
	readyCh := make(chan error, 1)
	go func() { readyCh <- c.readReady() }()
	timer := time.NewTimer(readyIn)
	defer timer.Stop()
	select {
	case err := <-readyCh:
		return err
	case <-timer.C:
		return transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the worker was not ready within %s", readyIn)
	case <-ctx.Done():
		return transport.NewError("", transport.PhaseDispatch, transport.CodeCancelled, transport.RetryNever, transport.NotAttempted, "cancelled while the worker started")
	}
}

func (c *Conn) readReady() error {
	ready, err := c.f.readReady()
	switch {
	case errors.Is(err, errNotReady):
		return transport.NewError("", transport.PhaseDispatch, transport.CodeProtocolError, transport.RetryNever, transport.NotAttempted, "the worker's first line is not a protocol v1 ready frame").WithCause(err)
	case err != nil:
		return transport.NewError("", transport.PhaseDispatch, transport.CodeLaunchFailed, transport.RetryNever, transport.NotAttempted, "the worker ended before it was ready").WithCause(err)
	}
	c.ready = ready
	return nil
}

// Ready is what the worker said in its ready frame.
func (c *Conn) Ready() transport.ReadyInfo { return c.ready }

// Done is closed once the worker has gone (its output ended, it broke the protocol, or the
// Conn was closed).
func (c *Conn) Done() <-chan struct{} { return c.deadCh }

// readLoop is the one reader of the worker's output. Its end fails every pending call:
// a clean end as worker_crashed (why, Gone says), anything that is not a valid response
// frame as a protocol error that ends the worker.
func (c *Conn) readLoop() {
	for {
		line, err := c.f.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed) {
				c.fail(c.ended())
			} else {
				c.breakProtocol("the worker's output ended inside a frame or was unreadable", err)
			}
			return
		}
		if isEvent(line) {
			continue // a hosted task's report (a session server's, never a worker's): no call waits for it
		}
		rf, filled := c.decodeResult(line)
		if !filled {
			if err := strictjson.Decode(line, &rf); err != nil || rf.V != transport.Version || (rf.Error == nil) == (rf.Result == nil) {
				c.breakProtocol("the worker wrote a line that is not a protocol v1 response", err)
				return
			}
		}
		c.mu.Lock()
		w, ok := c.pending[rf.ID]
		delete(c.pending, rf.ID)
		c.mu.Unlock()
		if ok {
			rp := reply{frame: rf}
			if filled {
				rp.res = w.res
			}
			w.ch <- rp // buffered: never blocks the reader
		}
		// A response for an id nobody waits for is the late answer to a cancelled call.
	}
}

// decodeResult decodes a result frame for a waiting call in one pass, its result straight
// into the call's result value, and says whether it did: the frame's id is read first (gjson,
// after the depth check that makes it safe), so the strict decode knows the result's type.
// Decoding the frame with its result as raw JSON and then the result on its own read the
// result twice, on every answer. Anything else (an error frame, an id nobody waits for, a
// result that is not the call's, a broken line) is left to readLoop's plain decode, which
// tells these apart as it always has.
func (c *Conn) decodeResult(line []byte) (transport.ResponseFrame, bool) {
	var rf transport.ResponseFrame
	if strictjson.CheckDepth(line) != nil {
		return rf, false
	}
	id := gjson.GetBytes(line, "id")
	if id.Type != gjson.String {
		return rf, false
	}
	c.mu.Lock()
	w := c.pending[id.Str]
	c.mu.Unlock()
	// Filling w.res races nothing: its caller reads it only after readLoop hands it the
	// reply, and a caller that stopped waiting never reads it.
	if w == nil || strictjson.DecodeRedirected(line, &rf, "", map[string]any{"result": w.res}) != nil ||
		rf.V != transport.Version || rf.Error != nil || !gjson.GetBytes(line, "result").Exists() {
		return transport.ResponseFrame{}, false
	}
	return rf, true
}

// waiter is one call waiting for its response: ch gets it, res is what its result decodes
// into.
type waiter struct {
	ch  chan reply
	res transport.Result
}

// reply is a response as readLoop hands it to its call. res is set when the result is
// already decoded (decodeResult; frame.Result is then empty).
type reply struct {
	frame transport.ResponseFrame
	res   transport.Result
}

// ended is why the worker's output ended cleanly: Close asked it to, or it is gone.
func (c *Conn) ended() *transport.OperationError {
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if closing {
		return errClosed()
	}
	return transport.NewError("", transport.PhaseExecute, transport.CodeWorkerCrashed, transport.RetryUnsafe, transport.Unknown, "%s", c.gone())
}

func errClosed() *transport.OperationError {
	return transport.NewError("", transport.PhaseTeardown, transport.CodeSessionEnded, transport.RetryNever, transport.NotAttempted, "the client is closed")
}

func (c *Conn) breakProtocol(msg string, cause error) {
	c.fail(transport.NewError("", transport.PhaseExecute, transport.CodeProtocolError, transport.RetryUnsafe, transport.Unknown, "%s", msg).WithCause(cause))
	go c.broken()
}

// fail marks the Conn dead (first cause wins) and fails every pending call.
func (c *Conn) fail(oe *transport.OperationError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return
	}
	c.dead = oe
	close(c.deadCh)
	for id, w := range c.pending {
		delete(c.pending, id)
		w.ch <- reply{frame: transport.ResponseFrame{ID: id, Error: oe}}
	}
}

// startClosing marks the Conn closing and says whether the worker was still there.
func (c *Conn) startClosing() (alive bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closing = true
	return c.dead == nil && !c.answeredClose
}

// Call sends one request and waits for its response, the operation's deadline, the caller's
// context or the worker's death, whichever comes first. When the wait ends early a cancel
// frame is sent: ending the wait is not ending the remote work, the frame is. op is not
// validated again: the process boundary it entered through did that (transport.Validate),
// and the worker's Serve checks what arrives.
func (c *Conn) Call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	name := op.OpName() // the caller validated op at its process boundary (Runtime.Call)
	request, err := transport.ResolveTimeout(name, transport.RequestBudgetOf(ctx))
	if err != nil {
		return nil, err
	}
	frame := transport.RequestFrame{V: transport.Version, Op: name, Context: octx}
	if transport.RequestBudgetOf(ctx) != 0 {
		frame.TimeoutMs = transport.BudgetMillis(request)
	}
	deadline := transport.DeadlineFor(op, request)
	id := strconv.FormatUint(c.next.Add(1), 10)
	frame.ID = id
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.dead != nil {
		dead := *c.dead
		c.mu.Unlock()
		dead.Operation, dead.MutationState, dead.Retry = name, transport.NotAttempted, transport.RetryNever
		dead.Message = "the worker is gone: " + dead.Message
		return nil, &dead
	}
	c.pending[id] = &waiter{ch: ch, res: transport.NewResult(op)}
	c.mu.Unlock()

	if w, ok := op.(interface{ ForWire() transport.Operation }); ok {
		op = w.ForWire() // an assert's Value, given in Go, in its wire field
	}
	frame.Request, err = marshalCompact(op)
	if err == nil {
		err = c.f.send(frame)
	}
	if err != nil {
		c.forget(id)
		var tooLarge *jsonl.FrameTooLargeError
		if errors.As(err, &tooLarge) {
			return nil, transport.NewError(name, transport.PhaseValidate, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted, "request larger than %d bytes", tooLarge.Limit)
		}
		return nil, transport.NewError(name, transport.PhaseDispatch, transport.CodeWorkerCrashed, transport.RetryNever, transport.NotAttempted, "the request could not be written to the worker").WithCause(err)
	}

	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case rp := <-ch:
		res, err := c.decode(op, rp)
		if err == nil && transport.SpecOf(op).EndsSession {
			// The worker closes after this answer: a close from Close would race its exit.
			c.mu.Lock()
			c.answeredClose, c.closing = true, true
			c.mu.Unlock()
		}
		return res, err
	case <-timer.C:
		c.abandon(id)
		return nil, c.waitEnded(op, transport.CodeTimeout, fmt.Sprintf("no response within the operation's deadline (%s: its budget and a margin)", deadline))
	case <-ctx.Done():
		c.abandon(id)
		code, msg := transport.CodeCancelled, "the caller cancelled the request"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			code, msg = transport.CodeTimeout, "the caller's deadline passed"
		}
		return nil, c.waitEnded(op, code, msg)
	}
}

func (c *Conn) waitEnded(op transport.Operation, code transport.Code, msg string) *transport.OperationError {
	if op.Mutates() {
		return transport.NewError(op.OpName(), transport.PhaseExecute, code, transport.RetryUnsafe, transport.Unknown, "%s", msg)
	}
	return transport.NewError(op.OpName(), transport.PhaseExecute, code, transport.RetrySafe, transport.NotAttempted, "%s", msg)
}

func (c *Conn) decode(op transport.Operation, rp reply) (transport.Result, error) {
	if rp.res != nil {
		return rp.res, nil
	}
	rf := rp.frame
	if rf.Error != nil {
		oe := *rf.Error
		if oe.Code == transport.CodeWorkerCrashed || oe.Code == transport.CodeProtocolError {
			oe.Operation = op.OpName()
			if !op.Mutates() {
				oe.MutationState, oe.Retry = transport.NotAttempted, transport.RetrySafe
			}
		}
		if oe.Operation == "" {
			oe.Operation = op.OpName()
		}
		return nil, &oe
	}
	res := transport.NewResult(op)
	if err := strictjson.Decode(rf.Result, res); err != nil {
		return nil, transport.NewError(op.OpName(), transport.PhaseExecute, transport.CodeProtocolError, transport.RetryUnsafe, transport.Unknown, "the worker's result does not match the operation").WithCause(err)
	}
	return res, nil
}

func (c *Conn) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// abandon stops waiting for id and asks the worker to cancel it.
func (c *Conn) abandon(id string) {
	c.forget(id)
	_ = c.f.sendCancel(id)
}

// Close asks the worker to close (bounded by the request budget) unless it is already gone,
// fails later calls session_ended, and closes the writer, so the worker reads the end of its
// input; it returns the writer's Close error. It is idempotent. What is behind the streams
// is the owner's to stop.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		if c.startClosing() {
			ctx, cancel := context.WithTimeout(context.Background(), budgets.Request().Default)
			_, _ = c.Call(ctx, &transport.Close{}, nil)
			cancel()
		}
		c.fail(errClosed())
		c.closeErr = c.closer.Close()
	})
	return c.closeErr
}

// isEvent says whether line is an event frame ({"v":1,"event":{…}}, no id), which answers
// no request: a client that does not use hosted tasks skips it, as docs/protocol.md lets
// every parent do.
func isEvent(line []byte) bool {
	return strictjson.CheckDepth(line) == nil && gjson.GetBytes(line, "event").IsObject() && !gjson.GetBytes(line, "id").Exists()
}
