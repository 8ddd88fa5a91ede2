package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
)

// echoHandler is a fake peer for the codec: it answers reads with the tab it was asked
// about, blocks on a navigate to "http://block/" until cancelled, and fails asserts.
type echoHandler struct {
	mu   sync.Mutex
	seen []string
}

func (h *echoHandler) Handle(ctx context.Context, op transport.Operation, _ *transport.OperationContext) (transport.Result, error) {
	h.mu.Lock()
	h.seen = append(h.seen, op.OpName())
	h.mu.Unlock()
	switch r := op.(type) {
	case *transport.Read:
		return &transport.ReadResult{Tab: r.Tab, Text: "hello <b>"}, nil
	case *transport.Navigate:
		if r.URL == "http://block/" {
			<-ctx.Done()
			return nil, transport.NewError(transport.OpNavigate, transport.PhaseExecute, transport.CodeCancelled, transport.RetryUnsafe, transport.Unknown, "cancelled")
		}
		return &transport.NavigateResult{Tab: r.Tab, URL: r.URL, Status: 200, DocumentID: "doc-1"}, nil
	case *transport.Assert:
		return nil, transport.NewError(transport.OpAssert, transport.PhaseVerify, transport.CodeAssertionFailed, transport.RetrySafe, transport.NotAttempted, "text did not appear")
	case *transport.Close:
		return &transport.CloseResult{Closed: true}, nil
	}
	return nil, errors.New("raw internal detail that must not leak")
}

type peer struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startPeer(t *testing.T, h Handler) *peer {
	t.Helper()
	return startPeerWith(t, h, ServerOptions{})
}

func startPeerWith(t *testing.T, h Handler, opts ServerOptions) *peer {
	t.Helper()
	opts.Ready = transport.ReadyInfo{Browser: "Fake/1"}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &peer{in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		p.done <- Serve(context.Background(), inR, outW, h, opts)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); <-p.done })
	if got := p.line(t); got != `{"v":1,"ready":{"protocol":1,"browser":"Fake/1"}}` {
		t.Fatalf("ready frame = %s", got)
	}
	return p
}

func (p *peer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// frameWait bounds a test's wait for a frame that must come: long, as only a broken server
// reaches it and a loaded CI machine (load 15 on 2 CPUs was seen) can starve a correct one
// for seconds.
const frameWait = 30 * time.Second

func (p *peer) line(t *testing.T) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() { s, err := p.out.ReadString('\n'); ch <- res{s, err} }()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("read frame: %v", r.err)
		}
		return strings.TrimSuffix(r.s, "\n")
	case <-time.After(frameWait):
		t.Fatalf("no frame within %s", frameWait)
	}
	return ""
}

func (p *peer) response(t *testing.T) transport.ResponseFrame {
	t.Helper()
	var rf transport.ResponseFrame
	l := p.line(t)
	if err := json.Unmarshal([]byte(l), &rf); err != nil {
		t.Fatalf("not a response frame: %s", l)
	}
	return rf
}

func TestServeAnswersAndRefuses(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	cases := []struct {
		name, line, id string
		code           transport.Code
		path           string
	}{
		{"ok read", `{"v":1,"id":"1","op":"read","request":{"tab":"T"}}`, "1", "", ""},
		{"malformed json", `{"v":1,"id":"2",`, "", transport.CodeProtocolError, ""},
		{"not an object", `[1,2]`, "", transport.CodeProtocolError, ""},
		{"wrong version", `{"v":2,"id":"3","op":"read"}`, "3", transport.CodeInvalidRequest, "v"},
		{"unknown op", `{"v":1,"id":"4","op":"evaluate","request":{}}`, "4", transport.CodeInvalidRequest, "op"},
		{"unknown field", `{"v":1,"id":"5","op":"navigate","request":{"url":"http://x/","URL":"y"}}`, "5", transport.CodeInvalidRequest, "request"},
		{"wrong type", `{"v":1,"id":"6","op":"navigate","request":{"url":7}}`, "6", transport.CodeInvalidRequest, "request.url"},
		{"duplicate key", `{"v":1,"id":"7","op":"read","op":"read"}`, "7", transport.CodeInvalidRequest, ""},
		{"missing url", `{"v":1,"id":"8","op":"navigate","request":{}}`, "8", transport.CodeInvalidRequest, "request"},
		{"bad assert kind", `{"v":1,"id":"9","op":"assert","request":{"kind":"html","value":"x"}}`, "9", transport.CodeInvalidRequest, "request.kind"},
		{"handler error keeps shape", `{"v":1,"id":"10","op":"assert","request":{"kind":"title","value":"x"}}`, "10", transport.CodeAssertionFailed, ""},
		{"internal error is generic", `{"v":1,"id":"11","op":"listTabs"}`, "11", transport.CodeInternal, ""},
		{"invalid utf8", "{\"v\":1,\"id\":\"12\",\"op\":\"read\",\"request\":{\"tab\":\"\xff\"}}", "", transport.CodeProtocolError, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p.send(t, c.line)
			rf := p.response(t)
			if rf.ID != c.id {
				t.Errorf("id = %q, want %q", rf.ID, c.id)
			}
			if c.code == "" {
				if rf.Error != nil || rf.Posture != transport.PostureOK {
					t.Fatalf("unexpected error %+v", rf.Error)
				}
				return
			}
			if rf.Error == nil || rf.Error.Code != c.code {
				t.Fatalf("error = %+v, want code %s", rf.Error, c.code)
			}
			if !strings.HasPrefix(rf.Error.Path, c.path) {
				t.Errorf("path = %q, want prefix %q", rf.Error.Path, c.path)
			}
			if rf.Error.MutationState == "" || rf.Error.Retry == "" || rf.Error.Phase == "" {
				t.Errorf("incomplete error %+v", rf.Error)
			}
			if strings.Contains(rf.Error.Message, "raw internal detail") {
				t.Errorf("raw error leaked: %q", rf.Error.Message)
			}
		})
	}
	// The server is still alive after every bad line.
	p.send(t, `{"v":1,"id":"99","op":"read"}`)
	if rf := p.response(t); rf.ID != "99" || rf.Error != nil {
		t.Fatalf("server did not survive: %+v", rf)
	}
}

func TestServeResultIsNotHTMLEscaped(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	p.send(t, `{"v":1,"id":"1","op":"read"}`)
	if l := p.line(t); !strings.Contains(l, `"hello <b>"`) {
		t.Fatalf("result escaped or missing: %s", l)
	}
}

func TestServeCancelFrameStopsRunningRequest(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	p.send(t, `{"v":1,"id":"a","op":"navigate","request":{"url":"http://block/"}}`)
	p.send(t, `{"v":1,"cancel":"a"}`)
	rf := p.response(t)
	if rf.ID != "a" || rf.Error == nil || rf.Error.Code != transport.CodeCancelled {
		t.Fatalf("cancel: %+v", rf)
	}
}

func TestServeStopsAfterClose(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	p.send(t, `{"v":1,"id":"c","op":"close"}`)
	if rf := p.response(t); rf.ID != "c" || rf.Error != nil {
		t.Fatalf("close: %+v", rf)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after close")
	}
	p.done <- nil // for the cleanup
}

func TestDispatchIsTyped(t *testing.T) {
	var c transport.Caller = handlerCaller{&echoHandler{}}
	res, err := transport.Dispatch(context.Background(), c, transport.Navigate{URL: "http://a.test/"})
	if err != nil {
		t.Fatal(err)
	}
	// res is a NavigateResult by type; this line would not compile otherwise.
	if res.Status != 200 || res.URL != "http://a.test/" {
		t.Fatalf("result %+v", res)
	}
	_, err = transport.Dispatch(context.Background(), c, transport.Assert{Kind: transport.AssertTitle, Value: "x"})
	if !errors.Is(err, transport.ErrCode(transport.CodeAssertionFailed)) {
		t.Fatalf("errors.Is by code failed: %v", err)
	}
}

type handlerCaller struct{ h Handler }

func (hc handlerCaller) Call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	return hc.h.Handle(ctx, op, octx)
}

func TestErrorSurvivesTheWire(t *testing.T) {
	oe := transport.NewError("act", transport.PhaseVerify, transport.CodePostconditionFailed, transport.RetryUnsafe, transport.Unknown, "text %q did not appear within 3s", "Done")
	b, _ := json.Marshal(oe)
	want := `{"operation":"act","phase":"verify","code":"postcondition_failed","message":"text \"Done\" did not appear within 3s","retry":"unsafe","mutationState":"unknown"}`
	if string(b) != want {
		t.Fatalf("wire form\n got %s\nwant %s", b, want)
	}
	var back transport.OperationError
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(&back, transport.ErrCode(transport.CodePostconditionFailed)) || errors.Is(&back, transport.ErrCode(transport.CodeTimeout)) {
		t.Fatal("errors.Is by code does not survive the wire")
	}
}

func FuzzServeLine(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"id":"1","op":"read"}`, `{"v":1,"cancel":"1"}`, `{"v":1,"id":"1","op":"navigate","request":{"url":"http://x/"}}`,
		`{"v":1,"id":"1","op":"listTabs","request":{"select":{"kind":"index","index":3}}}`, `{`, `null`, "\xff", `{"v":1,"id":"1","op":"assert","request":{"kind":"url","value":"x","wait":"none"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var out strings.Builder
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a lane a line starts stops at once, answering what it had queued
		s := &server{f: newFrameConn(nil, &out), h: &echoHandler{}, ctx: ctx, maxQueued: 4, lanes: map[string]chan *job{}, pending: map[string]*job{}, closed: make(chan struct{})}
		s.handleLine(line) // must not panic; may enqueue
		s.lanesRunning.Wait()
	})
}

// eventHandler reports one task event for each request and answers it.
type eventHandler struct{}

func (eventHandler) Handle(ctx context.Context, op transport.Operation, _ *transport.OperationContext) (transport.Result, error) {
	transport.EventsOf(ctx)(transport.TaskEvent{Task: "k1", Kind: transport.EventSettled, Settlement: transport.SettlementComplete})
	return &transport.ReadResult{Text: "ok"}, nil
}

// TestServeWritesEventFrames: what a handler reports through the request's event sink is
// written as an event frame, without an id, before the answer it came with.
func TestServeWritesEventFrames(t *testing.T) {
	p := startPeer(t, eventHandler{})
	p.send(t, `{"v":1,"id":"1","op":"read","request":{}}`)
	if got, want := p.line(t), `{"v":1,"event":{"task":"k1","kind":"settled","settlement":"complete"}}`; got != want {
		t.Fatalf("first frame %s, want the event %s", got, want)
	}
	if rf := p.response(t); rf.ID != "1" || rf.Error != nil {
		t.Fatalf("answer %+v", rf)
	}
}
