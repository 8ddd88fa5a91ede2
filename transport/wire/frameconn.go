package wire

import (
	"errors"
	"io"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/jsonl"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// frameConn is one end of a protocol v1 connection: whole frames in from a byte stream and
// out to another, within the frame budget. It is the one implementation of the connection
// that Conn (calls to a worker), Serve (the serve loop of a worker, `serve` and the
// multi-session host) and the host calls (hostcall.go, both ends) speak through, so the
// ready handshake, the frame limits and the shape of a result or an error frame are the
// same wherever a frame is written or read. What a frame means (pending calls, lanes,
// cancellation) is its user's.
type frameConn struct {
	r *jsonl.Reader // nil for a frameConn that only writes (RefuseStart)
	w *jsonl.Writer
}

func newFrameConn(r io.Reader, w io.Writer) *frameConn {
	f := &frameConn{w: jsonl.NewWriter(w, jsonl.DefaultMaxLine)}
	if r != nil {
		f.r = jsonl.NewReader(r, jsonl.DefaultMaxLine)
	}
	return f
}

// readLine reads the next line (jsonl.Reader's errors: a line too long, a torn frame, the
// end of the stream).
func (f *frameConn) readLine() ([]byte, error) { return f.r.ReadLine() }

// sendReady writes the ready frame, a server's first line.
func (f *frameConn) sendReady(info transport.ReadyInfo) error {
	info.Protocol = transport.Version
	return f.w.WriteFrame(transport.ReadyFrame{V: transport.Version, Ready: info})
}

// errNotReady: the peer's first line is not a protocol v1 ready frame.
var errNotReady = errors.New("the first line is not a protocol v1 ready frame")

// readReady reads the ready frame, a client's first read. The error is the read's (the peer
// ended or broke a line) or wraps errNotReady (with the decoder's reason, when it had one).
func (f *frameConn) readReady() (transport.ReadyInfo, error) {
	line, err := f.r.ReadLine()
	if err != nil {
		return transport.ReadyInfo{}, err
	}
	var rf transport.ReadyFrame
	if err := strictjson.Decode(line, &rf); err != nil {
		return transport.ReadyInfo{}, errors.Join(errNotReady, err)
	}
	if rf.V != transport.Version || rf.Ready.Protocol != transport.Version {
		return transport.ReadyInfo{}, errNotReady
	}
	return rf.Ready, nil
}

// send writes one frame as one line.
func (f *frameConn) send(frame any) error { return f.w.WriteFrame(frame) }

// sendCancel asks the peer to stop request id.
func (f *frameConn) sendCancel(id string) error {
	return f.w.WriteFrame(transport.CancelFrame{V: transport.Version, Cancel: id})
}

// sendFailure writes op's failure err on request id as an error frame, with the evidence
// kept beside it (transport.FailureFrame).
func (f *frameConn) sendFailure(id, op string, err error) error {
	return f.w.WriteFrame(transport.FailureFrame(id, op, err))
}

// sendEvent writes one event frame (a hosted task's turn, action or settlement).
func (f *frameConn) sendEvent(e transport.TaskEvent) error {
	return f.w.WriteFrame(transport.EventFrame{V: transport.Version, Event: e})
}
