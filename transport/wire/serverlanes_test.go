package wire

import (
	"context"
	"fmt"
	"io"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// overlapHandler notes whether two requests ever ran at once. A navigate runs until it is
// cancelled or another request starts beside it.
type overlapHandler struct {
	mu      sync.Mutex
	running int
	overlap bool
	started chan struct{}
}

func (h *overlapHandler) Handle(ctx context.Context, op transport.Operation, _ *transport.OperationContext) (transport.Result, error) {
	h.mu.Lock()
	h.running++
	if h.running > 1 {
		h.overlap = true
		close(h.started)
	}
	h.mu.Unlock()
	defer func() { h.mu.Lock(); h.running--; h.mu.Unlock() }()
	if _, ok := op.(*transport.Navigate); ok {
		select {
		case <-ctx.Done():
		case <-h.started:
		}
		return nil, transport.NewError(transport.OpNavigate, transport.PhaseExecute, transport.CodeCancelled, transport.RetryUnsafe, transport.Unknown, "cancelled")
	}
	return &transport.ReadResult{Text: "x"}, nil
}

// A single session (serve without --binding-origin, the worker) runs every request in
// arrival order, one at a time, even when a frame names a session.
func TestServeOneLaneWithoutSessionLanes(t *testing.T) {
	h := &overlapHandler{started: make(chan struct{})}
	p := startPeer(t, h)
	p.send(t, `{"v":1,"id":"a","op":"navigate","request":{"url":"http://block/"}}`)
	p.send(t, `{"v":1,"id":"b","session":"x","task":"T","op":"read"}`)
	p.send(t, `{"v":1,"cancel":"a"}`)
	first, second := p.response(t), p.response(t)
	if first.ID != "a" || second.ID != "b" {
		t.Errorf("answered %s then %s; want a then b (arrival order)", first.ID, second.ID)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.overlap {
		t.Fatal("a request naming a session ran beside the running one: a single session's calls must be serialised")
	}
}

// hostHandler refuses close, as a multi-session host does.
type hostHandler struct{ echoHandler }

func (h *hostHandler) Handle(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	if _, ok := op.(*transport.Close); ok {
		return nil, transport.Invalid(transport.OpClose, "op", "a multi-session host is ended by closing the connection")
	}
	return h.echoHandler.Handle(ctx, op, octx)
}

// On a multi-session host a close (refused) ends nothing: the connection and every other
// session go on.
func TestServeSessionLanesCloseEndsNothing(t *testing.T) {
	p := startPeerWith(t, &hostHandler{}, ServerOptions{SessionLanes: true})
	p.send(t, `{"v":1,"id":"c","session":"s1","task":"A","op":"close"}`)
	if rf := p.response(t); rf.ID != "c" || rf.Error == nil || rf.Error.Code != transport.CodeInvalidRequest {
		t.Fatalf("close: %+v; want invalid_request", rf)
	}
	for _, id := range []string{"r1", "r2"} { // the second after the close's lane has surely moved on
		p.send(t, `{"v":1,"id":"`+id+`","session":"s2","task":"B","op":"read"}`)
		if rf := p.response(t); rf.ID != id || rf.Error != nil {
			t.Fatalf("another task's read %s after a refused close: %+v; want its answer", id, rf.Error)
		}
	}
}

// Lanes are bounded at once, not over the connection's life: after more sessions than
// maxLanes have come and gone, two sessions still run in parallel.
func TestServeSessionLanesRetire(t *testing.T) {
	h := &overlapHandler{started: make(chan struct{})}
	p := startPeerWith(t, h, ServerOptions{SessionLanes: true})
	for i := range maxLanes + 8 {
		id := fmt.Sprint("r", i)
		p.send(t, `{"v":1,"id":"`+id+`","session":"`+id+`","task":"T","op":"read"}`)
		if rf := p.response(t); rf.ID != id {
			t.Fatalf("answer %s, want %s", rf.ID, id)
		}
	}
	p.send(t, `{"v":1,"id":"a","session":"a","task":"T","op":"navigate","request":{"url":"http://block/"}}`)
	t.Cleanup(func() { // before the peer's: a failed run still ends
		go func() { _, _ = io.Copy(io.Discard, p.out) }()
		p.send(t, `{"v":1,"cancel":"a"}`)
	})
	p.send(t, `{"v":1,"id":"b","session":"b","task":"T","op":"read"}`)
	p.response(t) // without a lane of its own, b waits behind a and nothing answers
	p.response(t)
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.overlap {
		t.Fatal("sessions a and b did not run in parallel")
	}
}
