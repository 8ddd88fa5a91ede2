package wire

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// deepRequest is a read request whose "request" is levels nested arrays: the frame's own
// object makes the line one level deeper.
func deepRequest(id string, levels int) string {
	return `{"v":1,"id":"` + id + `","op":"read","request":` + strings.Repeat("[", levels) + strings.Repeat("]", levels) + `}`
}

// TestServeRefusesDeepNesting feeds the server loop lines nested 1 to 8·10^6 levels deep
// (the last is 16 MB, inside the 16 MiB line limit). Each is answered, none ends the
// server (a recursive parser would die with Go's uncatchable stack overflow), and a valid
// request on the same server is answered after each.
func TestServeRefusesDeepNesting(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	limitMsg := strconv.Itoa(budgets.JSONNesting) + " levels"
	for _, c := range []struct {
		levels int
		deep   bool // past the limit: an id-less protocol_error naming it
	}{
		{1, false},
		{budgets.JSONNesting - 1, false}, // with the frame's object: exactly the limit
		{budgets.JSONNesting, true},
		{10_000, true},
		{1_000_000, true},
		{8_000_000, true},
	} {
		t.Run(strconv.Itoa(c.levels), func(t *testing.T) {
			line := deepRequest("d", c.levels)
			if len(line) > budgets.FrameBytes {
				t.Fatalf("test line of %d bytes is over the frame limit", len(line))
			}
			p.send(t, line)
			rf := p.response(t)
			switch {
			case rf.Error == nil:
				t.Fatalf("no error for %d levels: %+v", c.levels, rf)
			case c.deep && (rf.ID != "" || rf.Error.Code != transport.CodeProtocolError || !strings.Contains(rf.Error.Message, limitMsg)):
				t.Fatalf("%d levels: want an id-less protocol_error naming %q, got id %q %+v", c.levels, limitMsg, rf.ID, rf.Error)
			case !c.deep && (rf.ID != "d" || rf.Error.Code != transport.CodeInvalidRequest || rf.Error.Path != "request"):
				// Within the limit the frame is decoded: request must be an object.
				t.Fatalf("%d levels: want invalid_request at request for id d, got id %q %+v", c.levels, rf.ID, rf.Error)
			}
			p.send(t, `{"v":1,"id":"after","op":"read","request":{"tab":"T"}}`)
			if rf := p.response(t); rf.ID != "after" || rf.Error != nil {
				t.Fatalf("the server did not answer a valid request after %d levels: %+v", c.levels, rf)
			}
		})
	}
}

// TestServeRefusesDeepCancelAndObjects: the check covers every frame (a cancel frame too)
// and objects as well as arrays, and brackets inside strings do not count.
func TestServeRefusesDeepCancelAndObjects(t *testing.T) {
	p := startPeer(t, &echoHandler{})
	n := 100_000
	for _, line := range []string{
		`{"v":1,"cancel":"x","extra":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`,
		`{"v":1,"id":"o","op":"read","request":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + `}`,
	} {
		p.send(t, line)
		if rf := p.response(t); rf.Error == nil || rf.Error.Code != transport.CodeProtocolError || rf.ID != "" {
			t.Fatalf("want an id-less protocol_error, got id %q %+v", rf.ID, rf.Error)
		}
	}
	// A string full of brackets is not nesting: this frame reaches the handler.
	p.send(t, `{"v":1,"id":"s","op":"navigate","request":{"url":"http://a.test/`+strings.Repeat("[{", 2*budgets.JSONNesting)+`\"]"}}`)
	if rf := p.response(t); rf.ID != "s" || rf.Error != nil {
		t.Fatalf("brackets in a string were counted: %+v", rf)
	}
}
