package worker

import (
	"context"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
)

// watchWebSockets records each WebSocket a target (a tab, an out-of-process frame, a
// dedicated worker) opens to an origin outside the policy in force, as a refusal of kind
// "websocket". A WebSocket handshake never reaches Fetch interception: where the session has
// the egress proxy, the proxy refuses the connection, and this record is what fails the
// operation and tells the runtime that the proxy's refusal was the page's, not the browser's
// own background traffic. Without the proxy the handshake is not stopped (the record still
// fails the operation). call bounds Network.enable; the watch lives as long as life.
func (w *Worker) watchWebSockets(call, life context.Context, c *cdp.Client) error {
	created, err := c.Network.WebSocketCreated(life)
	if err != nil {
		return err
	}
	if err := c.Network.Enable(call, network.NewEnableArgs().SetMaxTotalBufferSize(0).SetMaxResourceBufferSize(0).SetMaxPostDataSize(0)); err != nil {
		created.Close()
		return err
	}
	s := &socketWatch{
		gone: make(chan struct{}),
		pending: func() bool {
			select {
			case <-created.Ready(): // closed while an event waits: receiving it cannot block
				return true
			default:
				return false
			}
		},
		record: func() bool {
			return next(created, func(ev *network.WebSocketCreatedReply) {
				if origin, ok := w.egress.allows(ev.URL); !ok {
					w.egress.refuse("websocket", origin)
				}
			})
		},
	}
	w.sockets.add(s)
	go func() {
		defer created.Close()
		defer w.sockets.remove(s)
		defer close(s.gone)
		for {
			select {
			case <-created.Ready():
				if !s.recordPending() {
					return
				}
			case <-life.Done():
				return
			}
		}
	}()
	return nil
}

// socketWatch is one target's WebSocket watcher. Its goroutine records events as they come;
// settle records, on the operation's own goroutine, what is buffered and not yet recorded.
type socketWatch struct {
	gone    chan struct{} // closed when the watcher has stopped
	pending func() bool   // an event is buffered (never blocks, receives nothing)
	record  func() bool   // receive and record one buffered event; false once the stream ended

	// mu is held while an event is received and recorded: once settle holds it, an event
	// either has been recorded or is still buffered, never half way.
	mu sync.Mutex
}

// recordPending records every event buffered now; false once the stream ended.
func (s *socketWatch) recordPending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.pending() {
		if !s.record() {
			return false
		}
	}
	return true
}

// socketWatches is the set of running watchers.
type socketWatches struct {
	mu  sync.Mutex
	set map[*socketWatch]bool
}

func (ws *socketWatches) add(s *socketWatch) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.set == nil {
		ws.set = map[*socketWatch]bool{}
	}
	ws.set[s] = true
}

func (ws *socketWatches) remove(s *socketWatch) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.set, s)
}

// settleWebSockets records the WebSocket events every watcher has received and not yet
// recorded, so an operation reports the WebSockets its own work opened (a page load, a click
// handler): Chromium sends their events before the answers and load events the operation
// waited for, and rpcc has put them in the watchers' streams by the time the operation has its
// answer. It records them on the operation's goroutine, under each watcher's lock, instead of
// asking each watcher's goroutine and waiting for it: no goroutine is woken when, as on almost
// every operation, nothing is buffered, and it never waits (receiving a buffered event does
// not block).
func (w *Worker) settleWebSockets() {
	w.sockets.mu.Lock()
	all := make([]*socketWatch, 0, len(w.sockets.set))
	for s := range w.sockets.set {
		all = append(all, s)
	}
	w.sockets.mu.Unlock()
	for _, s := range all {
		s.recordPending()
	}
}
