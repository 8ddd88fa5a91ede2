package transport

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

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// ClientOptions says how to start a worker.
type ClientOptions struct {
	// WorkerPath is the executable to run, used exactly as given (never looked up on PATH).
	// Empty means this binary itself (os.Executable) with the "worker" subcommand.
	WorkerPath string
	// Args are the worker's arguments. With an empty WorkerPath they follow "worker".
	Args []string
	// Env is the worker's full environment; nil inherits this process's.
	Env []string
	// Log receives the worker's stderr (its logs). Nil discards.
	Log io.Writer
	// ReadyTimeout bounds the wait for the ready frame (0: budgets.WorkerReady default).
	ReadyTimeout time.Duration
}

// Client owns one worker subprocess and speaks protocol v1 to it. Calls may be concurrent;
// the worker runs them in arrival order.
type Client struct {
	proc  *process.Process
	w     *jsonl.Writer
	ready ReadyInfo
	next  atomic.Uint64

	mu      sync.Mutex
	pending map[string]chan responseFrame
	dead    *OperationError // set once the worker is gone or broke the protocol
	deadCh  chan struct{}

	closeOnce sync.Once
	closeErr  error
	readDone  chan struct{}
}

// StartClient starts the worker and waits for its ready frame within the worker-readiness
// budget. On any failure the worker's process group is stopped before returning.
func StartClient(ctx context.Context, opts ClientOptions) (*Client, error) {
	readyIn, err := budgets.WorkerReady.Resolve(opts.ReadyTimeout)
	if err != nil {
		return nil, NewError("", PhaseValidate, CodeBudgetExceeded, RetryNever, NotAttempted, "%s", err.Error())
	}
	path, args := opts.WorkerPath, opts.Args
	if path == "" {
		self, err := os.Executable()
		if err != nil {
			return nil, NewError("", PhaseDispatch, CodeLaunchFailed, RetryNever, NotAttempted, "cannot find this executable to start the worker").WithCause(err)
		}
		path, args = self, append([]string{"worker"}, args...)
	}
	proc, err := process.Start(process.Spec{Path: path, Args: args, Env: opts.Env, Stdin: true, Stdout: true, OutputSink: opts.Log})
	if err != nil {
		return nil, NewError("", PhaseDispatch, CodeLaunchFailed, RetryNever, NotAttempted, "the worker could not be started").WithCause(err)
	}
	c := &Client{
		proc:     proc,
		w:        jsonl.NewWriter(proc.Stdin, jsonl.DefaultMaxLine),
		pending:  map[string]chan responseFrame{},
		deadCh:   make(chan struct{}),
		readDone: make(chan struct{}),
	}
	r := jsonl.NewReader(proc.Stdout, jsonl.DefaultMaxLine)
	readyCh := make(chan error, 1)
	go func() { readyCh <- c.readReady(r) }()
	timer := time.NewTimer(readyIn)
	defer timer.Stop()
	select {
	case err = <-readyCh:
	case <-timer.C:
		err = NewError("", PhaseDispatch, CodeLaunchFailed, RetryNever, NotAttempted, "the worker was not ready within %s", readyIn)
	case <-ctx.Done():
		err = NewError("", PhaseDispatch, CodeCancelled, RetryNever, NotAttempted, "cancelled while the worker started")
	}
	if err != nil {
		_ = proc.Kill()
		return nil, err
	}
	go c.readLoop(r)
	go func() { // the worker's death fails every pending call
		<-proc.Done()
		<-c.readDone
		c.fail(NewError("", PhaseExecute, CodeWorkerCrashed, RetryUnsafe, Unknown, "the worker exited (%s)", exitDescription(proc)))
	}()
	return c, nil
}

func exitDescription(p *process.Process) string {
	if sig := p.Signal(); sig != "" {
		return "signal: " + sig
	}
	return "exit code " + strconv.Itoa(p.ExitCode())
}

func (c *Client) readReady(r *jsonl.Reader) error {
	line, err := r.ReadLine()
	if err != nil {
		return NewError("", PhaseDispatch, CodeLaunchFailed, RetryNever, NotAttempted, "the worker ended before it was ready").WithCause(err)
	}
	var rf readyFrame
	if err := strictjson.Decode(line, &rf); err != nil || rf.V != Version || rf.Ready.Protocol != Version {
		return NewError("", PhaseDispatch, CodeProtocolError, RetryNever, NotAttempted, "the worker's first line is not a protocol v1 ready frame").WithCause(err)
	}
	c.ready = rf.Ready
	return nil
}

// Ready is what the worker said in its ready frame.
func (c *Client) Ready() ReadyInfo { return c.ready }

// Pid is the worker's process id (for tests and diagnostics).
func (c *Client) Pid() int { return c.proc.Pid() }

// Done is closed once the worker has gone (exited, crashed or broke the protocol).
func (c *Client) Done() <-chan struct{} { return c.deadCh }

// readLoop is the one reader of the worker's stdout. Anything that is not a valid response
// frame is a protocol error that ends the worker.
func (c *Client) readLoop(r *jsonl.Reader) {
	defer close(c.readDone)
	for {
		line, err := r.ReadLine()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				c.breakProtocol("the worker's output ended inside a frame or was unreadable", err)
			}
			return
		}
		var rf responseFrame
		if err := strictjson.Decode(line, &rf); err != nil || rf.V != Version || (rf.Error == nil) == (rf.Result == nil) {
			c.breakProtocol("the worker wrote a line that is not a protocol v1 response", err)
			return
		}
		c.mu.Lock()
		ch, ok := c.pending[rf.ID]
		delete(c.pending, rf.ID)
		c.mu.Unlock()
		if ok {
			ch <- rf // buffered: never blocks the reader
		}
		// A response for an id nobody waits for is the late answer to a cancelled call.
	}
}

func (c *Client) breakProtocol(msg string, cause error) {
	c.fail(NewError("", PhaseExecute, CodeProtocolError, RetryUnsafe, Unknown, "%s", msg).WithCause(cause))
	go func() { _ = c.proc.Kill() }()
}

// fail marks the client dead (first cause wins) and fails every pending call.
func (c *Client) fail(oe *OperationError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return
	}
	c.dead = oe
	close(c.deadCh)
	for id, ch := range c.pending {
		delete(c.pending, id)
		ch <- responseFrame{ID: id, Error: oe}
	}
}

// Call sends one request and waits for its response, the operation's deadline, the caller's
// context or the worker's death, whichever comes first. When the wait ends early a cancel
// frame is sent: ending the wait is not ending the remote work, the frame is.
func (c *Client) Call(ctx context.Context, op Operation, octx *OperationContext) (Result, error) {
	name := op.OpName()
	if err := op.Validate(); err != nil {
		return nil, AsOperationError(name, err)
	}
	request, err := resolveTimeout(name, requestBudgetOf(ctx))
	if err != nil {
		return nil, err
	}
	frame := requestFrame{V: Version, Op: name, Context: octx}
	if requestBudgetOf(ctx) != 0 {
		frame.TimeoutMs = timeoutMs(request)
	}
	deadline := deadlineFor(op, request)
	id := strconv.FormatUint(c.next.Add(1), 10)
	frame.ID = id
	ch := make(chan responseFrame, 1)
	c.mu.Lock()
	if c.dead != nil {
		dead := *c.dead
		c.mu.Unlock()
		dead.Operation, dead.MutationState, dead.Retry = name, NotAttempted, RetryNever
		dead.Message = "the worker is gone: " + dead.Message
		return nil, &dead
	}
	c.pending[id] = ch
	c.mu.Unlock()

	frame.Request, err = marshalCompact(op)
	if err == nil {
		err = c.w.WriteFrame(frame)
	}
	if err != nil {
		c.forget(id)
		var tooLarge *jsonl.FrameTooLargeError
		if errors.As(err, &tooLarge) {
			return nil, NewError(name, PhaseValidate, CodeInvalidRequest, RetryNever, NotAttempted, "request larger than %d bytes", tooLarge.Limit)
		}
		return nil, NewError(name, PhaseDispatch, CodeWorkerCrashed, RetryNever, NotAttempted, "the request could not be written to the worker").WithCause(err)
	}

	timer := time.NewTimer(deadline)
	defer timer.Stop()
	select {
	case rf := <-ch:
		return c.decode(op, rf)
	case <-timer.C:
		c.abandon(id)
		return nil, c.waitEnded(op, CodeTimeout, fmt.Sprintf("no response within %s", deadline))
	case <-ctx.Done():
		c.abandon(id)
		code, msg := CodeCancelled, "the caller cancelled the request"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			code, msg = CodeTimeout, "the caller's deadline passed"
		}
		return nil, c.waitEnded(op, code, msg)
	}
}

func (c *Client) waitEnded(op Operation, code Code, msg string) *OperationError {
	if op.Mutates() {
		return NewError(op.OpName(), PhaseExecute, code, RetryUnsafe, Unknown, "%s", msg)
	}
	return NewError(op.OpName(), PhaseExecute, code, RetrySafe, NotAttempted, "%s", msg)
}

func (c *Client) decode(op Operation, rf responseFrame) (Result, error) {
	if rf.Error != nil {
		oe := *rf.Error
		if oe.Code == CodeWorkerCrashed || oe.Code == CodeProtocolError {
			oe.Operation = op.OpName()
			if !op.Mutates() {
				oe.MutationState, oe.Retry = NotAttempted, RetrySafe
			}
		}
		if oe.Operation == "" {
			oe.Operation = op.OpName()
		}
		return nil, &oe
	}
	res := op.newResult()
	if err := strictjson.Decode(rf.Result, res); err != nil {
		return nil, NewError(op.OpName(), PhaseExecute, CodeProtocolError, RetryUnsafe, Unknown, "the worker's result does not match the operation").WithCause(err)
	}
	return res, nil
}

func (c *Client) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// abandon stops waiting for id and asks the worker to cancel it.
func (c *Client) abandon(id string) {
	c.forget(id)
	_ = c.w.WriteFrame(cancelFrame{V: Version, Cancel: id})
}

// Close asks the worker to close (bounded by the request budget), then stops its process
// group: TERM, a grace period, KILL. It is idempotent and waits for teardown.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		alive := c.dead == nil
		c.mu.Unlock()
		if alive {
			ctx, cancel := context.WithTimeout(context.Background(), budgets.Request.Default)
			_, _ = c.Call(ctx, &Close{}, nil)
			cancel()
		}
		_ = c.proc.Stdin.Close()
		select {
		case <-c.proc.Done():
		case <-time.After(budgets.ProcessStopGrace.Default):
		}
		c.closeErr = c.proc.Stop(budgets.ProcessStopGrace.Default)
		c.fail(NewError("", PhaseTeardown, CodeSessionEnded, RetryNever, NotAttempted, "the client is closed"))
	})
	return c.closeErr
}
