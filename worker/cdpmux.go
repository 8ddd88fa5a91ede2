package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/transport/cdppipe"
)

// cdpMux carries flat CDP sessions over one websocket: the socket's own rpcc connection is
// the root (the browser, or a page for a per-page socket), and every session attached with
// flatten (a tab, an out-of-process frame, a worker, a held page) gets an rpcc connection of
// its own whose codec writes through the shared socket with "sessionId" added. So each
// session keeps its own *cdp.Client and event streams, and a remote browser needs to expose
// only its browser websocket (Selenium Grid's /se/cdp, browserless).
//
// Every rpcc connection numbers its calls from 1, so the mux renumbers the calls it writes
// and routes each answer back by that number to the connection that asked; events are
// routed by their "sessionId" (none: the root). The root's rpcc goroutine is the socket's
// only reader: it reads on through other sessions' messages until one is its own. A
// session ends when Chromium reports it detached, when its connection is closed, or when
// the socket does; its connection's calls then fail with rpcc's closed-connection error,
// like a page socket's did.
type cdpMux struct {
	wmu sync.Mutex
	rw  io.ReadWriter // rpcc's websocket: one Write is one message

	mu       sync.Mutex
	seq      uint64
	pending  map[uint64]muxCall // by the number on the wire
	sessions map[target.SessionID]*muxSession
	closed   error // the socket's read error once it ended
	root     *muxSession
}

type muxCall struct {
	s  *muxSession
	id uint64 // the caller's own number
}

// muxMessage is a message on the shared socket, either way.
type muxMessage struct {
	ID        uint64              `json:"id,omitempty"`
	Method    string              `json:"method,omitempty"`
	Params    any                 `json:"params,omitempty"`
	SessionID target.SessionID    `json:"sessionId,omitempty"`
	Result    json.RawMessage     `json:"result,omitempty"`
	Error     *rpcc.ResponseError `json:"error,omitempty"`
}

// muxIn is muxMessage as read: params stay raw for the session's rpcc to decode.
type muxIn struct {
	rpcc.Response
	SessionID target.SessionID `json:"sessionId"`
}

// errSessionDetached is a call's error on a session that ended. It reads as a closed
// connection (connClosed), as rpcc's own error does once the session's connection has
// closed: a call that races the close sees the same kind of error either way.
var errSessionDetached error = sessionDetached{}

type sessionDetached struct{}

func (sessionDetached) Error() string { return "the CDP session detached" }
func (sessionDetached) Closed() bool  { return true }

// dialMux opens a websocket whose messages carry flat sessions; the returned connection
// and client are its root.
func dialMux(ctx context.Context, wsURL string) (*cdpMux, *rpcc.Conn, *cdp.Client, error) {
	return newMux(ctx, wsURL, rpcc.WithWriteBufferSize(rpccWriteBuffer))
}

// dialMuxFd is dialMux on the private socket the runtime handed the worker as file
// descriptor fd: NUL-framed CDP to the gate of the browser it launched (runtime/internal/cdpgate),
// which serves the worker as a browser connection of its own.
func dialMuxFd(ctx context.Context, fd int) (*cdpMux, *rpcc.Conn, *cdp.Client, error) {
	f := os.NewFile(uintptr(fd), "cdp-socket")
	if f == nil {
		return nil, nil, nil, fmt.Errorf("file descriptor %d is not open", fd)
	}
	conn, err := net.FileConn(f)
	_ = f.Close() // FileConn holds its own copy
	if err != nil {
		return nil, nil, nil, fmt.Errorf("file descriptor %d is not a socket: %w", fd, err)
	}
	return dialMuxStream(ctx, cdppipe.NewStream(conn))
}

// dialMuxStream is dialMux on a NUL-framed stream to a browser's gate.
func dialMuxStream(ctx context.Context, stream io.ReadWriteCloser) (*cdpMux, *rpcc.Conn, *cdp.Client, error) {
	return newMux(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) {
		return stream, nil
	}))
}

func newMux(ctx context.Context, addr string, dial rpcc.DialOption) (*cdpMux, *rpcc.Conn, *cdp.Client, error) {
	m := &cdpMux{pending: map[uint64]muxCall{}, sessions: map[target.SessionID]*muxSession{}}
	m.root = &muxSession{m: m, done: make(chan struct{})}
	conn, err := rpcc.DialContext(ctx, addr, dial,
		rpcc.WithCodec(func(rw io.ReadWriter) rpcc.Codec {
			m.rw = rw
			return &muxRoot{m: m, dec: json.NewDecoder(rw)}
		}))
	if err != nil {
		return nil, nil, nil, err
	}
	return m, conn, cdp.NewClient(conn), nil
}

// open gives an attached session its own connection; it ends with ctx at the latest.
func (m *cdpMux) open(ctx context.Context, id target.SessionID) (*muxSession, *cdp.Client, error) {
	s := &muxSession{m: m, id: id, recv: make(chan rpcc.Response, muxSessionQueue), done: make(chan struct{})}
	m.mu.Lock()
	if m.closed != nil {
		m.mu.Unlock()
		return nil, nil, m.closed
	}
	m.sessions[id] = s
	m.mu.Unlock()
	conn, err := rpcc.DialContext(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) {
		return s, nil
	}), rpcc.WithCodec(func(io.ReadWriter) rpcc.Codec { return s }))
	if err != nil {
		s.end()
		return nil, nil, err
	}
	s.conn = conn
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	go func() {
		<-conn.Context().Done()
		stop()
	}()
	return s, cdp.NewClient(conn), nil
}

// muxSessionQueue is how many messages wait for a session's rpcc reader before the
// socket's reader waits for it (rpcc's reader only hands them on, so the wait is short).
const muxSessionQueue = 64

// write sends one call of s (or, for a sessionCall, of the session it names).
func (m *cdpMux) write(s *muxSession, r *rpcc.Request) error {
	out := muxMessage{Method: r.Method, Params: r.Args, SessionID: s.id}
	call, isCall := r.Args.(sessionCall)
	if isCall {
		out.Params, out.SessionID = call.params, call.id
	}
	m.mu.Lock()
	if m.closed != nil {
		m.mu.Unlock()
		return errSessionDetached
	}
	m.seq++
	out.ID = m.seq
	m.pending[out.ID] = muxCall{s: s, id: r.ID}
	m.mu.Unlock()
	b, err := json.Marshal(out)
	if err == nil {
		m.wmu.Lock()
		_, err = m.rw.Write(b)
		m.wmu.Unlock()
	}
	if isCall && call.sent != nil {
		close(call.sent)
	}
	if err != nil {
		m.mu.Lock()
		delete(m.pending, out.ID)
		m.mu.Unlock()
	}
	return err
}

// route finds who a message read from the socket is for: nil drops it (an answer to a call
// whose session ended, an event of a session nobody holds).
func (m *cdpMux) route(in *muxIn) *muxSession {
	m.mu.Lock()
	defer m.mu.Unlock()
	if in.Method == "" {
		c, ok := m.pending[in.ID]
		if !ok {
			return nil
		}
		delete(m.pending, in.ID)
		in.ID = c.id
		return c.s
	}
	if in.SessionID == "" {
		return m.root
	}
	return m.sessions[in.SessionID]
}

// detached ends the session an event says Chromium detached (a flat session's detach is
// told to its parent session, or to the root).
func (m *cdpMux) detached(in *muxIn) {
	if in.Method != "Target.detachedFromTarget" {
		return
	}
	var ev struct {
		SessionID target.SessionID `json:"sessionId"`
	}
	if json.Unmarshal(in.Args, &ev) != nil {
		return
	}
	m.mu.Lock()
	s := m.sessions[ev.SessionID]
	m.mu.Unlock()
	if s != nil {
		s.end()
	}
}

// shut ends every session once the socket has (the browser went away, or teardown closed
// the root).
func (m *cdpMux) shut(err error) {
	m.mu.Lock()
	if m.closed == nil {
		m.closed = err
	}
	sessions := make([]*muxSession, 0, len(m.sessions))
	for _, s := range m.sessions {
		sessions = append(sessions, s)
	}
	m.mu.Unlock()
	for _, s := range sessions {
		s.end()
	}
}

// forget drops a session and its calls in flight (their answers, if any come, are dropped).
func (m *cdpMux) forget(s *muxSession) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sessions[s.id] == s {
		delete(m.sessions, s.id)
	}
	for id, c := range m.pending {
		if c.s == s {
			delete(m.pending, id)
		}
	}
}

// muxRoot is the root connection's codec: it reads the socket for everyone.
type muxRoot struct {
	m   *cdpMux
	dec *json.Decoder
}

func (r *muxRoot) WriteRequest(req *rpcc.Request) error { return r.m.write(r.m.root, req) }

func (r *muxRoot) ReadResponse(resp *rpcc.Response) error {
	for {
		var in muxIn
		if err := r.dec.Decode(&in); err != nil {
			r.m.shut(err)
			return err
		}
		s := r.m.route(&in)
		if s == r.m.root {
			*resp = in.Response
			r.m.detached(&in)
			return nil
		}
		if s != nil {
			s.deliver(in.Response)
		}
		r.m.detached(&in)
	}
}

// muxSession is one flat session: its rpcc connection's codec and socket.
type muxSession struct {
	m    *cdpMux
	id   target.SessionID
	recv chan rpcc.Response
	conn *rpcc.Conn
	once sync.Once
	done chan struct{}
}

func (s *muxSession) deliver(resp rpcc.Response) {
	select {
	case s.recv <- resp:
	case <-s.done:
	}
}

func (s *muxSession) end() {
	s.once.Do(func() {
		close(s.done)
		s.m.forget(s)
	})
}

func (s *muxSession) WriteRequest(r *rpcc.Request) error {
	select {
	case <-s.done:
		return errSessionDetached
	default:
	}
	return s.m.write(s, r)
}

func (s *muxSession) ReadResponse(r *rpcc.Response) error {
	select {
	case resp := <-s.recv:
		*r = resp
		return nil
	case <-s.done:
		return errSessionDetached
	}
}

// Read, Write and Close make the session the socket rpcc wants; the codec carries every
// message, and closing the connection ends the session.
func (s *muxSession) Read([]byte) (int, error)  { return 0, errNoSocket }
func (s *muxSession) Write([]byte) (int, error) { return 0, errNoSocket }
func (s *muxSession) Close() error              { s.end(); return nil }

var errNoSocket = errors.New("a flat session has no socket of its own")
