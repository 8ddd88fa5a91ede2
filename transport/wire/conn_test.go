package wire

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// These tests drive a Conn over io.Pipe against a worker the test scripts line by line: no
// process, no browser.

const readyLine = `{"v":1,"ready":{"protocol":1,"browser":"Fake/1"}}`

// pipeWorker is the worker's end of a Conn's streams.
type pipeWorker struct {
	out    *io.PipeWriter // the worker's output: what the Conn reads
	in     *io.PipeReader // what the Conn writes
	frames chan string    // every line the Conn wrote, in order
	eof    chan struct{}  // closed once the Conn closed its writer (after frames has them all)
}

func newPipeWorker(t *testing.T) (p *pipeWorker, connIn io.Reader, connOut io.WriteCloser) {
	t.Helper()
	outR, outW := io.Pipe()
	inR, inW := io.Pipe()
	p = &pipeWorker{out: outW, in: inR, frames: make(chan string, 64), eof: make(chan struct{})}
	go func() {
		defer close(p.eof)
		br := bufio.NewReader(inR)
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			p.frames <- strings.TrimSuffix(line, "\n")
		}
	}()
	t.Cleanup(func() { _ = outW.Close(); _ = inR.Close() })
	return p, outR, inW
}

// dial connects a Conn to a new pipeWorker that says it is ready.
func dial(t *testing.T, opts ConnOptions) (*Conn, *pipeWorker) {
	t.Helper()
	p, r, w := newPipeWorker(t)
	go func() { _, _ = io.WriteString(p.out, readyLine+"\n") }()
	c, err := NewConn(context.Background(), r, w, opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Ready().Browser != "Fake/1" {
		t.Fatalf("ready %+v", c.Ready())
	}
	t.Cleanup(func() {
		// The worker goes first, so Close does not wait for an answer to its close op.
		_ = p.out.Close()
		<-c.Done()
		_ = c.Close()
	})
	return c, p
}

func (p *pipeWorker) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.out, line); err != nil {
		t.Fatal(err)
	}
}

// next is the next frame the Conn wrote.
func (p *pipeWorker) next(t *testing.T) string {
	t.Helper()
	select {
	case f := <-p.frames:
		return f
	case <-time.After(budgets.Request().Default):
		t.Fatal("the Conn wrote no frame")
	}
	return ""
}

// request is the next frame the Conn wrote, which must be a request for op.
func (p *pipeWorker) request(t *testing.T, op string) transport.RequestFrame {
	t.Helper()
	f := p.next(t)
	var rf transport.RequestFrame
	if err := strictjson.Decode([]byte(f), &rf); err != nil || rf.Op != op || rf.ID == "" {
		t.Fatalf("want a %s request, got %s (%v)", op, f, err)
	}
	return rf
}

// closed waits for the Conn to close its writer and says whether it wrote nothing more.
func (p *pipeWorker) closed(t *testing.T) (quiet bool) {
	t.Helper()
	select {
	case <-p.eof:
		return len(p.frames) == 0
	case <-time.After(budgets.Request().Default):
		t.Fatal("the Conn did not close its writer")
	}
	return false
}

type callResult struct {
	res transport.Result
	err error
}

// start runs one call on its own goroutine.
func start(ctx context.Context, c *Conn, op transport.Operation) <-chan callResult {
	ch := make(chan callResult, 1)
	go func() { res, err := c.Call(ctx, op, nil); ch <- callResult{res, err} }()
	return ch
}

func await(t *testing.T, ch <-chan callResult) callResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(budgets.Request().Default):
		t.Fatal("the call did not return")
	}
	return callResult{}
}

// wantError checks err's code, mutation state, retry advice, operation and message.
func wantError(t *testing.T, err error, code transport.Code, ms transport.MutationState, retry transport.Retry, op, msg string) {
	t.Helper()
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != code || oe.MutationState != ms || oe.Retry != retry || oe.Operation != op || oe.Message != msg {
		t.Fatalf("want %s/%s/%s %s %q, got %#v", code, ms, retry, op, msg, err)
	}
}

func wantDone(t *testing.T, c *Conn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(budgets.Request().Default):
		t.Fatal("Done was not closed")
	}
}

// TestConnCrash: the worker's output ending mid-call fails every pending call
// worker_crashed with the owner's description (or the default): unknown for a mutating
// operation, not attempted and safe to retry for a read-only one. Later calls are refused
// unattempted, and Close sends no close op to a worker that is gone.
func TestConnCrash(t *testing.T) {
	for _, tc := range []struct {
		gone func() string
		want string
	}{
		{func() string { return "the worker exited (signal: killed)" }, "the worker exited (signal: killed)"},
		{nil, "the worker closed its output"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			c, p := dial(t, ConnOptions{Gone: tc.gone})
			mutating := start(context.Background(), c, &transport.CloseTab{Tab: "T"})
			p.request(t, transport.OpCloseTab)
			readOnly := start(context.Background(), c, &transport.ListTabs{})
			p.request(t, transport.OpListTabs)
			_ = p.out.Close()
			wantError(t, await(t, mutating).err, transport.CodeWorkerCrashed, transport.Unknown, transport.RetryUnsafe, transport.OpCloseTab, tc.want)
			wantError(t, await(t, readOnly).err, transport.CodeWorkerCrashed, transport.NotAttempted, transport.RetrySafe, transport.OpListTabs, tc.want)
			wantDone(t, c)
			_, err := c.Call(context.Background(), &transport.CloseTab{Tab: "T"}, nil)
			wantError(t, err, transport.CodeWorkerCrashed, transport.NotAttempted, transport.RetryNever, transport.OpCloseTab, "the worker is gone: "+tc.want)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if !p.closed(t) {
				t.Fatal("Close wrote to a worker that is gone")
			}
		})
	}
}

// TestConnTimeout: a call with no answer ends at its deadline (the operation's, or the
// caller's) with code timeout, and the Conn sends a cancel frame for exactly that call.
func TestConnTimeout(t *testing.T) {
	c, p := dial(t, ConnOptions{})
	// ListTabs has no budget of its own: the request budget is its deadline.
	call := start(transport.WithRequestBudget(context.Background(), time.Millisecond), c, &transport.ListTabs{})
	rf := p.request(t, transport.OpListTabs)
	if got, want := p.next(t), `{"v":1,"cancel":"`+rf.ID+`"}`; got != want {
		t.Fatalf("cancel frame %s, want %s", got, want)
	}
	wantError(t, await(t, call).err, transport.CodeTimeout, transport.NotAttempted, transport.RetrySafe, transport.OpListTabs, "no response within the operation's deadline (1ms: its budget and a margin)")

	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	call = start(ctx, c, &transport.CloseTab{Tab: "T"})
	rf = p.request(t, transport.OpCloseTab)
	if got, want := p.next(t), `{"v":1,"cancel":"`+rf.ID+`"}`; got != want {
		t.Fatalf("cancel frame %s, want %s", got, want)
	}
	wantError(t, await(t, call).err, transport.CodeTimeout, transport.Unknown, transport.RetryUnsafe, transport.OpCloseTab, "the caller's deadline passed")
}

// TestConnCancel: cancelling the caller's context ends the wait with code cancelled and
// sends a cancel frame for the call.
func TestConnCancel(t *testing.T) {
	c, p := dial(t, ConnOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	call := start(ctx, c, &transport.CloseTab{Tab: "T"})
	rf := p.request(t, transport.OpCloseTab)
	cancel()
	if got, want := p.next(t), `{"v":1,"cancel":"`+rf.ID+`"}`; got != want {
		t.Fatalf("cancel frame %s, want %s", got, want)
	}
	wantError(t, await(t, call).err, transport.CodeCancelled, transport.Unknown, transport.RetryUnsafe, transport.OpCloseTab, "the caller cancelled the request")
}

// TestConnLateAnswer: an answer that arrives after its call was cancelled is dropped, and
// does not reach the next call, which gets its own result on the same Conn.
func TestConnLateAnswer(t *testing.T) {
	c, p := dial(t, ConnOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	call := start(ctx, c, &transport.ListTabs{})
	first := p.request(t, transport.OpListTabs)
	cancel()
	p.next(t) // the cancel frame
	wantError(t, await(t, call).err, transport.CodeCancelled, transport.NotAttempted, transport.RetrySafe, transport.OpListTabs, "the caller cancelled the request")

	call = start(context.Background(), c, &transport.ListTabs{})
	second := p.request(t, transport.OpListTabs)
	if second.ID == first.ID {
		t.Fatalf("the second call reused id %s", first.ID)
	}
	p.send(t, `{"v":1,"id":"`+first.ID+`","result":{"tabs":[{"tab":"T","url":"","title":"late"}],"selected":"T"},"posture":"ok"}`+"\n")
	p.send(t, `{"v":1,"id":"`+second.ID+`","result":{"tabs":[{"tab":"T","url":"","title":"second"}],"selected":"T"},"posture":"ok"}`+"\n")
	r := await(t, call)
	if lt, ok := r.res.(*transport.ListTabsResult); r.err != nil || !ok || len(lt.Tabs) != 1 || lt.Tabs[0].Title != "second" {
		t.Fatalf("second call got %#v %v", r.res, r.err)
	}
}

// TestConnBrokenStream: a torn frame, or a line that is not a response, fails every pending
// call protocol_error (a read-only one as not attempted), marks the Conn done and asks the
// owner to stop the worker.
func TestConnBrokenStream(t *testing.T) {
	const torn, notResponse = "the worker's output ended inside a frame or was unreadable", "the worker wrote a line that is not a protocol v1 response"
	for _, tc := range []struct {
		name, output string
		end          bool // the output ends after it
		want         string
	}{
		{"torn frame", `{"v":1,"id":"1","result":{"clo`, true, torn},
		{"garbage", "hello\n", false, notResponse},
		{"result and error", `{"v":1,"id":"1","result":{},"error":{"code":"internal"}}` + "\n", false, notResponse},
		{"wrong version", `{"v":2,"id":"1","result":{}}` + "\n", false, notResponse},
		{"unknown field", `{"v":1,"id":"1","result":{},"extra":1}` + "\n", false, notResponse},
		{"neither result nor error", `{"v":1,"id":"1","posture":"ok"}` + "\n", false, notResponse},
		{"result for nobody and error", `{"v":1,"id":"9","result":{},"error":{"code":"internal"}}` + "\n", false, notResponse},
	} {
		t.Run(tc.name, func(t *testing.T) {
			broken := make(chan struct{})
			c, p := dial(t, ConnOptions{Broken: func() { close(broken) }})
			mutating := start(context.Background(), c, &transport.CloseTab{Tab: "T"})
			p.request(t, transport.OpCloseTab)
			readOnly := start(context.Background(), c, &transport.ListTabs{})
			p.request(t, transport.OpListTabs)
			p.send(t, tc.output)
			if tc.end {
				_ = p.out.Close()
			}
			wantError(t, await(t, mutating).err, transport.CodeProtocolError, transport.Unknown, transport.RetryUnsafe, transport.OpCloseTab, tc.want)
			wantError(t, await(t, readOnly).err, transport.CodeProtocolError, transport.NotAttempted, transport.RetrySafe, transport.OpListTabs, tc.want)
			wantDone(t, c)
			select {
			case <-broken:
			case <-time.After(budgets.Request().Default):
				t.Fatal("the owner was not told the worker broke the protocol")
			}
		})
	}
}

// TestConnNotReady: a worker whose first line is not a ready frame, whose output ends
// before one, or that says nothing within the ready bound or before the caller cancels, is
// refused, as is a bound over the readiness budget's ceiling; the Conn closes its writer
// unused.
func TestConnNotReady(t *testing.T) {
	const notV1, ended = "the worker's first line is not a protocol v1 ready frame", "the worker ended before it was ready"
	bg := context.Background()
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	for _, tc := range []struct {
		name, output string
		end          bool // the output ends after it; otherwise the worker stays silent
		ctx          context.Context
		ready        time.Duration
		code         transport.Code
		msg          string
	}{
		{"a response first", `{"v":1,"id":"1","result":{}}` + "\n", true, bg, 0, transport.CodeProtocolError, notV1},
		{"protocol 2", `{"v":1,"ready":{"protocol":2,"browser":"Fake/1"}}` + "\n", true, bg, 0, transport.CodeProtocolError, notV1},
		{"garbage", "Segmentation fault\n", true, bg, 0, transport.CodeProtocolError, notV1},
		{"nothing", "", true, bg, 0, transport.CodeLaunchFailed, ended},
		{"torn ready", `{"v":1,"ready":{"proto`, true, bg, 0, transport.CodeLaunchFailed, ended},
		{"silent past the bound", "", false, bg, time.Millisecond, transport.CodeLaunchFailed, "the worker was not ready within 1ms"},
		{"cancelled", "", false, cancelled, 0, transport.CodeCancelled, "cancelled while the worker started"},
		{"bound over the ceiling", "", false, bg, budgets.WorkerReady().Ceiling + time.Second, transport.CodeBudgetExceeded, "workerReady budget of 6s is over its ceiling of 5s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, r, w := newPipeWorker(t)
			if tc.end {
				go func() { _, _ = io.WriteString(p.out, tc.output); _ = p.out.Close() }()
			}
			c, err := NewConn(tc.ctx, r, w, ConnOptions{ReadyTimeout: tc.ready})
			if c != nil {
				t.Fatal("a Conn for a worker that is not ready")
			}
			wantError(t, err, tc.code, transport.NotAttempted, transport.RetryNever, "", tc.msg)
			if !p.closed(t) {
				t.Fatal("the Conn wrote to a worker that was not ready")
			}
		})
	}
}

// TestConnClose: Close sends the close op, closes the writer once it is answered (or once
// the worker's output ends instead), and refuses later calls session_ended, not as a crash,
// though the output ends; a second Close does nothing more.
func TestConnClose(t *testing.T) {
	for _, answer := range []bool{true, false} {
		t.Run(map[bool]string{true: "answered", false: "output ends unanswered"}[answer], func(t *testing.T) {
			c, p := dial(t, ConnOptions{Gone: func() string { return "must not be used after Close" }})
			closed := make(chan error, 1)
			go func() { closed <- c.Close() }()
			rf := p.request(t, transport.OpClose)
			if answer {
				p.send(t, `{"v":1,"id":"`+rf.ID+`","result":{"closed":true},"posture":"ok"}`+"\n")
			}
			_ = p.out.Close()
			if !p.closed(t) {
				t.Fatal("Close wrote more than the close op")
			}
			if err := <-closed; err != nil {
				t.Fatal(err)
			}
			wantDone(t, c)
			_, err := c.Call(context.Background(), &transport.ListTabs{}, nil)
			wantError(t, err, transport.CodeSessionEnded, transport.NotAttempted, transport.RetryNever, transport.OpListTabs, "the worker is gone: the client is closed")
			if err := c.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
		})
	}
}

// TestConnCloseAfterAnsweredClose: once the worker answered a close call it exits on its own;
// Close sends no second close frame (it would race the exit), and the end of the worker's
// output is not a crash.
func TestConnCloseAfterAnsweredClose(t *testing.T) {
	c, p := dial(t, ConnOptions{Gone: func() string { return "must not be used: the worker answered close" }})
	called := make(chan error, 1)
	go func() { _, err := c.Call(context.Background(), &transport.Close{}, nil); called <- err }()
	rf := p.request(t, transport.OpClose)
	p.send(t, `{"v":1,"id":"`+rf.ID+`","result":{"closed":true},"posture":"ok"}`+"\n")
	if err := <-called; err != nil {
		t.Fatal(err)
	}
	_ = p.out.Close()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !p.closed(t) {
		t.Fatal("Close wrote a second close frame after the worker answered close")
	}
	_, err := c.Call(context.Background(), &transport.ListTabs{}, nil)
	wantError(t, err, transport.CodeSessionEnded, transport.NotAttempted, transport.RetryNever, transport.OpListTabs, "the worker is gone: the client is closed")
}

// TestConnResultNotTheOperations: a well-formed response whose result does not fit the call's
// operation fails that call protocol_error; the Conn goes on and the next answer is decoded.
// Results are decoded straight into the call's result type (decodeResult): this is the case
// it must leave to the plain decode.
func TestConnResultNotTheOperations(t *testing.T) {
	c, p := dial(t, ConnOptions{})
	call := start(context.Background(), c, &transport.ListTabs{})
	rf := p.request(t, transport.OpListTabs)
	p.send(t, `{"v":1,"id":"`+rf.ID+`","result":{"closed":true},"posture":"ok"}`+"\n")
	wantError(t, await(t, call).err, transport.CodeProtocolError, transport.Unknown, transport.RetryUnsafe, transport.OpListTabs, "the worker's result does not match the operation")

	call = start(context.Background(), c, &transport.ListTabs{})
	rf = p.request(t, transport.OpListTabs)
	p.send(t, `{"v":1,"id":"`+rf.ID+`","result":{"tabs":[{"tab":"T","url":"u","title":"\u00e9 <&>"}],"selected":"T"},"posture":"ok"}`+"\n")
	r := await(t, call)
	if lt, ok := r.res.(*transport.ListTabsResult); r.err != nil || !ok || len(lt.Tabs) != 1 || lt.Tabs[0].Title != "é <&>" || lt.Selected != "T" {
		t.Fatalf("the next call got %#v %v", r.res, r.err)
	}
}

// TestConnSkipsEventFrames: an event frame (a hosted task's report) answers no call: the
// Conn reads past it and the call still gets its own answer.
func TestConnSkipsEventFrames(t *testing.T) {
	c, p := dial(t, ConnOptions{})
	call := start(context.Background(), c, &transport.ListTabs{})
	req := p.request(t, transport.OpListTabs)
	p.send(t, `{"v":1,"event":{"task":"k1","kind":"turn","turn":{"turn":1,"tool":"locate","outcome":"ok","inputTokens":0,"outputTokens":0,"modelMs":1,"observeMs":1}}}`+"\n")
	p.send(t, `{"v":1,"id":"`+req.ID+`","result":{"tabs":[{"tab":"T","url":"","title":"answer"}],"selected":"T"},"posture":"ok"}`+"\n")
	r := await(t, call)
	if lt, ok := r.res.(*transport.ListTabsResult); r.err != nil || !ok || lt.Tabs[0].Title != "answer" {
		t.Fatalf("the call got %#v %v", r.res, r.err)
	}
}
