package worker

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// attachChildren auto-attaches to every target a tab (or an attached frame) starts: its
// out-of-process iframes and dedicated workers. Chromium pauses each one before it runs or
// loads anything; interception is switched on before it is resumed, so its first request is
// classified like the tab's own. Nested children are attached the same way.
//
// Sessions are non-flat (messages wrapped in Target.sendMessageToTarget on the parent's
// connection): rpcc has no routing by top-level sessionId, and page-level auto-attach keeps
// each worker's attachments inside its own tabs, where a browser-level one would also pause
// the targets of other workers sharing the browser.
//
// An out-of-process frame's session stays open while it is attached: the tab keeps it
// (frames.go) so observe, act and masking reach into the frame. session names the parent:
// "" for the tab itself, else the parent frame's target id.
func (w *Worker) attachChildren(ctx context.Context, t *tab, session string, parent *cdp.Client) error {
	attached, err := parent.Target.AttachedToTarget(ctx)
	if err != nil {
		return err
	}
	messages, err := parent.Target.ReceivedMessageFromTarget(ctx)
	if err != nil {
		attached.Close()
		return err
	}
	detached, err := parent.Target.DetachedFromTarget(ctx)
	if err != nil {
		attached.Close()
		messages.Close()
		return err
	}
	r := &childRouter{sessions: map[target.SessionID]*childSession{}}
	drain(messages, func(ev *target.ReceivedMessageFromTargetReply) { r.deliver(ctx, ev.SessionID, []byte(ev.Message)) })
	drain(detached, func(ev *target.DetachedFromTargetReply) { r.drop(ev.SessionID) })
	drain(attached, func(ev *target.AttachedToTargetReply) { go w.adopt(ctx, t, session, parent, r, ev) })
	return parent.Target.SetAutoAttach(ctx, target.NewSetAutoAttachArgs(true, true).SetFlatten(false))
}

// adopt intercepts one paused child target and resumes it. A child whose interception
// cannot be switched on stays paused: it never runs, so it never sends a request the policy
// did not see.
func (w *Worker) adopt(ctx context.Context, t *tab, session string, parent *cdp.Client, r *childRouter, ev *target.AttachedToTargetReply) {
	s, err := r.open(ctx, parent, ev.SessionID)
	if err != nil {
		w.log.Printf("attach to %s target: %v", ev.TargetInfo.Type, err)
		return
	}
	c := cdp.NewClient(s.conn)
	// A dedicated worker has no Fetch domain; its requests pass through its owner's
	// interception (TestEgressNarrowedInChildTargets/worker), so it is only resumed.
	if ev.TargetInfo.Type != "worker" {
		if err := w.intercept(s.ctx, c); err != nil {
			w.log.Printf("intercept %s target, left paused: %v", ev.TargetInfo.Type, err)
			w.egress.refuse(ev.TargetInfo.Type, originOrScheme(ev.TargetInfo.URL))
			return
		}
	}
	call, cancel := context.WithTimeout(s.ctx, budgets.CDPCall().Default)
	defer cancel()
	if err := w.watchWebSockets(call, s.ctx, c); err != nil {
		w.log.Printf("watch WebSockets of %s target: %v", ev.TargetInfo.Type, err)
	}
	if ev.TargetInfo.Type == "iframe" {
		// An out-of-process frame is a document of its own: it gets the document guards
		// and auto-attach for its own frames and workers.
		if err := w.guardDocuments(call, c); err != nil {
			w.log.Printf("guard documents in frame: %v", err)
		}
		f := &oopif{id: string(ev.TargetInfo.TargetID), parent: session, c: c}
		t.addFrame(f)
		context.AfterFunc(s.ctx, func() { t.dropFrame(f) })
		if err := w.attachChildren(s.ctx, t, f.id, c); err != nil {
			w.log.Printf("auto-attach under frame: %v", err)
		}
	}
	if !ev.WaitingForDebugger {
		return
	}
	if err := c.Runtime.RunIfWaitingForDebugger(call); err != nil {
		w.log.Printf("resume %s target: %v", ev.TargetInfo.Type, err)
	}
}

// childRouter hands each message the parent connection receives to its child session.
type childRouter struct {
	mu       sync.Mutex
	sessions map[target.SessionID]*childSession
}

func (r *childRouter) open(ctx context.Context, parent *cdp.Client, id target.SessionID) (*childSession, error) {
	sctx, cancel := context.WithCancel(ctx)
	s := &childSession{id: id, ctx: sctx, cancel: cancel, recv: make(chan []byte, 64)}
	s.send = func(msg []byte) error {
		return parent.Target.SendMessageToTarget(sctx, target.NewSendMessageToTargetArgs(string(msg)).SetSessionID(id))
	}
	r.mu.Lock()
	r.sessions[id] = s
	r.mu.Unlock()
	conn, err := rpcc.DialContext(sctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) {
		return noSocket{}, nil
	}), rpcc.WithCodec(func(io.ReadWriter) rpcc.Codec { return s }))
	if err != nil {
		r.drop(id)
		return nil, err
	}
	s.conn = conn
	go func() {
		<-sctx.Done()
		_ = conn.Close()
	}()
	return s, nil
}

func (r *childRouter) deliver(ctx context.Context, id target.SessionID, msg []byte) {
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		return
	}
	select {
	case s.recv <- msg:
	case <-s.ctx.Done():
	case <-ctx.Done():
	}
}

func (r *childRouter) drop(id target.SessionID) {
	r.mu.Lock()
	s := r.sessions[id]
	delete(r.sessions, id)
	r.mu.Unlock()
	if s != nil {
		s.cancel()
	}
}

// childSession is an rpcc codec over Target.sendMessageToTarget and the parent's
// receivedMessageFromTarget events.
type childSession struct {
	id     target.SessionID
	ctx    context.Context
	cancel context.CancelFunc
	recv   chan []byte
	send   func([]byte) error
	conn   *rpcc.Conn
}

func (s *childSession) WriteRequest(r *rpcc.Request) error {
	msg, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.send(msg)
}

func (s *childSession) ReadResponse(r *rpcc.Response) error {
	select {
	case msg := <-s.recv:
		return json.Unmarshal(msg, r)
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// noSocket stands in for the socket rpcc wants: the codec carries every message.
type noSocket struct{}

var errNoSocket = errors.New("child session has no socket of its own")

func (noSocket) Read([]byte) (int, error)  { return 0, errNoSocket }
func (noSocket) Write([]byte) (int, error) { return 0, errNoSocket }
func (noSocket) Close() error              { return nil }
