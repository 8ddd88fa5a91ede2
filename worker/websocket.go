package worker

import (
	"context"
	"sync"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"

	"github.com/fastbrowser/fastbrowser/budgets"
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
	s := &socketWatch{settle: make(chan chan struct{}), gone: make(chan struct{})}
	w.sockets.add(s)
	go func() {
		defer created.Close()
		defer w.sockets.remove(s)
		defer close(s.gone)
		record := func() bool {
			return next(created, func(ev *network.WebSocketCreatedReply) {
				if origin, ok := w.egress.allows(ev.URL); !ok {
					w.egress.refuse("websocket", origin)
				}
			})
		}
		for {
			select {
			case <-created.Ready():
				if !record() {
					return
				}
			case done := <-s.settle:
				// Everything Chromium sent before the last answer on this connection is
				// already buffered in the stream: record all of it before saying so.
				ok := true
				for drained := false; ok && !drained; {
					select {
					case <-created.Ready():
						ok = record()
					default:
						drained = true
					}
				}
				close(done)
				if !ok {
					return
				}
			case <-life.Done():
				return
			}
		}
	}()
	return nil
}

// socketWatch is one target's WebSocket watcher; settle asks it to record what is buffered.
type socketWatch struct {
	settle chan chan struct{}
	gone   chan struct{} // closed when the watcher has stopped
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

// settleWebSockets has every watcher record the WebSocket events already received, so an
// operation reports the WebSockets its own work opened (a page load, a click handler):
// Chromium sends their events before the answers and load events the operation waited for.
// It waits at most one CDP call budget, even for a cancelled operation.
func (w *Worker) settleWebSockets() {
	ctx, cancel := context.WithTimeout(context.Background(), budgets.CDPCall().Default)
	defer cancel()
	w.sockets.mu.Lock()
	all := make([]*socketWatch, 0, len(w.sockets.set))
	for s := range w.sockets.set {
		all = append(all, s)
	}
	w.sockets.mu.Unlock()
	for _, s := range all {
		done := make(chan struct{})
		select {
		case s.settle <- done:
		case <-s.gone:
			continue
		case <-ctx.Done():
			return
		}
		select {
		case <-done:
		case <-s.gone:
		case <-ctx.Done():
			return
		}
	}
}
