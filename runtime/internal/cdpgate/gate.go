package cdpgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/cdppipe"
)

// ErrClosed is the error of anything asked of a gate whose pipe has ended: the browser
// exited, or the gate was closed.
var ErrClosed = errors.New("cdpgate: the browser's DevTools pipe is closed")

// Gate carries the DevTools pipe of one browser to any number of clients.
type Gate struct {
	out *cdppipe.Writer // to the browser
	log func(string)    // notes on what the gate dropped or cut; never message contents

	mu      sync.Mutex
	seq     uint64
	calls   map[uint64]call    // in flight, by the id on the pipe
	owner   map[string]*client // every session a client holds, its browser session included
	clients map[*client]struct{}
	err     error // why the pipe ended (ErrClosed wrapping it); nil while it runs
	done    chan struct{}

	ws wsState // the token websocket, started on first use (websocket.go)
}

// call is a call on the pipe waiting for its answer.
type call struct {
	c  *client // nil: the gate's own
	id []byte  // the client's own id, as it wrote it
	// attach: the call attaches a session (Target.attachToTarget, attachToBrowserTarget), and
	// the sessionId in its answer becomes the caller's.
	attach bool
	reply  chan []byte // the gate's own call: where its answer goes (nil: nobody waits)
}

// New starts a gate on a browser's pipe: from reads what the browser writes (its fd 4),
// to is what it reads (its fd 3). log, when set, hears what the gate drops.
func New(from io.Reader, to io.Writer, log func(string)) *Gate {
	if log == nil {
		log = func(string) {}
	}
	g := &Gate{
		out: cdppipe.NewWriter(to), log: log,
		calls: map[uint64]call{}, owner: map[string]*client{}, clients: map[*client]struct{}{},
		done: make(chan struct{}),
	}
	go g.read(cdppipe.NewReader(from, budgets.BrowserMessageBytes))
	return g
}

// Done is closed once the pipe has ended.
func (g *Gate) Done() <-chan struct{} { return g.done }

// Err is why the pipe ended (wrapping ErrClosed), nil while it runs.
func (g *Gate) Err() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// Note passes a line to the gate's log.
func (g *Gate) Note(line string) { g.log(line) }

// Close ends every client and the websocket endpoint; the pipe is the owner's to close.
func (g *Gate) Close() { g.shut(errors.New("the gate was closed")) }

// read is the pipe's only reader.
func (g *Gate) read(r *cdppipe.Reader) {
	for {
		msg, err := r.Next()
		if errors.Is(err, cdppipe.ErrTooLarge) {
			g.log(fmt.Sprintf("cdpgate: dropped a message from the browser: %v", err))
			continue
		}
		if err != nil {
			g.shut(err)
			return
		}
		h := browserHead(msg)
		if h.hasID {
			g.answer(msg, h)
		} else {
			g.event(msg, h)
		}
	}
}

// answer routes the browser's answer to a call.
func (g *Gate) answer(msg []byte, h head) {
	id, err := strconv.ParseUint(string(h.id.of(msg)), 10, 64)
	if err != nil {
		return
	}
	g.mu.Lock()
	c, ok := g.calls[id]
	delete(g.calls, id)
	if ok && c.attach && c.c != nil && !c.c.ended {
		if sid := gjson.GetBytes(msg, "result.sessionId").Str; sid != "" {
			g.owner[sid] = c.c
		}
	}
	g.mu.Unlock()
	switch {
	case !ok:
	case c.c == nil:
		if c.reply != nil {
			c.reply <- append([]byte(nil), msg...)
		}
	default:
		c.c.send(rewrite(msg, h, c.id, h.session == c.c.browser))
	}
}

// event routes an event to the client holding its session; the pipe's own events (those
// of no session) are the gate's.
func (g *Gate) event(msg []byte, h head) {
	if h.session == "" {
		if h.method == "Target.detachedFromTarget" {
			g.browserSessionEnded(gjson.GetBytes(msg, "params.sessionId").Str)
		}
		return
	}
	var detached string
	g.mu.Lock()
	c := g.owner[h.session]
	if c != nil {
		switch h.method {
		case "Target.attachedToTarget":
			// Held before the event is delivered: the client's first call on the new session
			// (resuming it) must find it held.
			if sid := gjson.GetBytes(msg, "params.sessionId").Str; sid != "" {
				g.owner[sid] = c
			}
		case "Target.detachedFromTarget":
			detached = gjson.GetBytes(msg, "params.sessionId").Str
		}
	}
	g.mu.Unlock()
	if c == nil {
		return // a session whose client left
	}
	c.send(rewrite(msg, h, nil, h.session == c.browser))
	if detached != "" {
		g.mu.Lock()
		if g.owner[detached] == c && detached != c.browser {
			delete(g.owner, detached)
		}
		g.mu.Unlock()
	}
}

// browserSessionEnded ends the client whose browser session the browser detached.
func (g *Gate) browserSessionEnded(sid string) {
	g.mu.Lock()
	c := g.owner[sid]
	g.mu.Unlock()
	if c != nil && c.browser == sid {
		c.end()
	}
}

// Call makes a call of the owner's on the pipe's root (no client's session) and returns its
// answer's result; a DevTools error is an error. It waits at most ctx.
func (g *Gate) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	reply := make(chan []byte, 1)
	id, err := g.register(call{reply: reply})
	if err != nil {
		return nil, err
	}
	if err := g.write(id, method, params); err != nil {
		return nil, err
	}
	select {
	case msg := <-reply:
		var a struct {
			Result json.RawMessage
			Error  *struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal(msg, &a); err != nil {
			return nil, fmt.Errorf("cdpgate: %s: unreadable answer: %w", method, err)
		}
		if a.Error != nil {
			return nil, fmt.Errorf("cdpgate: %s: %s (%d)", method, a.Error.Message, a.Error.Code)
		}
		return a.Result, nil
	case <-ctx.Done():
		g.forget(id)
		return nil, fmt.Errorf("cdpgate: %s: %w", method, ctx.Err())
	case <-g.done:
		return nil, g.Err()
	}
}

// notify makes a call of the gate's own whose answer nobody waits for.
func (g *Gate) notify(method string, params any) {
	if id, err := g.register(call{}); err == nil {
		_ = g.write(id, method, params)
	}
}

// register numbers a call on the pipe.
func (g *Gate) register(c call) (uint64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err != nil {
		return 0, g.err
	}
	g.seq++
	g.calls[g.seq] = c
	return g.seq, nil
}

func (g *Gate) forget(id uint64) {
	g.mu.Lock()
	delete(g.calls, id)
	g.mu.Unlock()
}

func (g *Gate) write(id uint64, method string, params any) error {
	msg, err := json.Marshal(struct {
		ID     uint64 `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params,omitempty"`
	}{id, method, params})
	if err != nil {
		g.forget(id)
		return err
	}
	if err := g.out.Write(msg); err != nil {
		g.forget(id)
		g.shut(err)
		return g.Err()
	}
	return nil
}

// shut ends the gate once: every client is ended and nothing more is carried.
func (g *Gate) shut(cause error) {
	g.mu.Lock()
	if g.err != nil {
		g.mu.Unlock()
		return
	}
	if errors.Is(cause, io.EOF) {
		cause = errors.New("the browser closed it")
	}
	g.err = fmt.Errorf("%w: %v", ErrClosed, cause)
	clients := make([]*client, 0, len(g.clients))
	for c := range g.clients {
		clients = append(clients, c)
	}
	clear(g.calls) // the gate's own waiters hear of it from done
	g.mu.Unlock()
	close(g.done)
	for _, c := range clients {
		c.end()
	}
	g.stopWebSocket()
}
