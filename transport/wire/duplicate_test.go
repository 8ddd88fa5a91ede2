package wire

import (
	"io"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// TestServeDuplicateIDRefusalHasNoID: a request reusing the id of one in flight is refused
// without that id (a frame with the id is the in-flight request's answer), naming the id;
// the in-flight request still gets exactly one answer, its own.
func TestServeDuplicateIDRefusalHasNoID(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	// Runs before the peer's own cleanup, which waits for x: a failing check must not hang.
	t.Cleanup(func() {
		go func() { _, _ = io.Copy(io.Discard, p.out) }()
		_, _ = io.WriteString(p.in, `{"v":1,"cancel":"x"}`+"\n")
	})
	p.send(t, `{"v":1,"id":"x","op":"navigate","request":{"url":"http://block/"}}`) // runs until cancelled
	p.send(t, `{"v":1,"id":"x","op":"read"}`)
	rf := p.response(t)
	if rf.ID != "" || rf.Error == nil || rf.Error.Code != transport.CodeInvalidRequest || rf.Error.Path != "id" || !strings.Contains(rf.Error.Message, `"x"`) {
		t.Fatalf("duplicate id refusal: id %q %+v", rf.ID, rf.Error)
	}
	// End the in-flight request; then a marker request shows the stream is past it.
	p.send(t, `{"v":1,"cancel":"x"}`)
	p.send(t, `{"v":1,"id":"after","op":"read"}`)
	var forX []transport.ResponseFrame
	for {
		rf := p.response(t)
		if rf.ID == "after" {
			break
		}
		if rf.ID != "x" {
			t.Fatalf("unexpected frame %+v", rf)
		}
		forX = append(forX, rf)
	}
	if len(forX) != 1 || forX[0].Error == nil || forX[0].Error.Code != transport.CodeCancelled || forX[0].Error.Operation != transport.OpNavigate {
		t.Fatalf("in-flight request x got %d answers, want its own one (navigate, cancelled): %+v", len(forX), forX)
	}
}
