package cdpgate

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// link is a client's connection: a socket, or a websocket.
type link interface {
	// Next returns the client's next message, valid until the next call.
	Next() ([]byte, error)
	// Send writes one message; only the client's writer calls it.
	Send(msg []byte) error
	Close() error
}

// client is one connection through the gate, with a browser session of its own.
type client struct {
	g       *Gate
	link    link
	browser string // its browser session on the pipe
	out     chan []byte
	done    chan struct{}
	once    sync.Once
	ended   bool // under g.mu: its sessions are no longer held
}

// serve gives l a browser session of its own and carries its messages until either side
// ends. It returns once the session exists (or could not be made, when l is closed).
func (g *Gate) serve(ctx context.Context, l link) error {
	ctx, cancel := context.WithTimeout(ctx, budgets.GateAttach)
	defer cancel()
	res, err := g.Call(ctx, "Target.attachToBrowserTarget", nil)
	if err != nil {
		_ = l.Close()
		return err
	}
	sid := gjson.GetBytes(res, "sessionId").Str
	if sid == "" {
		_ = l.Close()
		return fmt.Errorf("cdpgate: Target.attachToBrowserTarget gave no session")
	}
	c := &client{g: g, link: l, browser: sid, out: make(chan []byte, budgets.GateClientQueue), done: make(chan struct{})}
	g.mu.Lock()
	if g.err != nil {
		g.mu.Unlock()
		_ = l.Close()
		return g.err
	}
	g.owner[sid] = c
	g.clients[c] = struct{}{}
	g.mu.Unlock()
	go c.write()
	go c.read()
	return nil
}

// read carries the client's calls onto the pipe: a call of no session is its browser
// session's; one addressed to a session it does not hold is refused as Chromium refuses an
// unknown session.
func (c *client) read() {
	for {
		msg, err := c.link.Next()
		if err != nil {
			c.end()
			return
		}
		if !gjson.ValidBytes(msg) {
			c.refuse(nil, -32700, "Message must be a valid JSON")
			continue
		}
		h, ok := clientHead(msg)
		if !ok {
			c.refuse(nil, -32600, "Message must be an object naming id, method and sessionId at most once each, sessionId a string")
			continue
		}
		if !h.hasID || !isInteger(h.id.of(msg)) {
			c.refuse(nil, -32600, "Message must have integer 'id' property")
			continue
		}
		own := append([]byte(nil), h.id.of(msg)...)
		g := c.g
		g.mu.Lock()
		if g.err != nil {
			g.mu.Unlock()
			c.end()
			return
		}
		if h.session != "" && g.owner[h.session] != c {
			g.mu.Unlock()
			c.refuse(own, -32001, "Session with given id not found.")
			continue
		}
		g.seq++
		id := g.seq
		g.calls[id] = call{c: c, id: own, attach: h.method == "Target.attachToTarget" || h.method == "Target.attachToBrowserTarget"}
		g.mu.Unlock()
		out := withID(msg, h, strconv.AppendUint(nil, id, 10))
		if h.session == "" {
			out = withSession(out, c.browser)
		}
		if err := g.out.Write(out); err != nil {
			g.shut(err)
			return
		}
	}
}

// refuse answers a call the gate will not carry, as Chromium answers one it cannot take.
func (c *client) refuse(id []byte, code int, message string) {
	msg := fmt.Appendf(nil, `{"error":{"code":%d,"message":%q}}`, code, message)
	if id != nil {
		msg = fmt.Appendf(nil, `{"id":%s,"error":{"code":%d,"message":%q}}`, id, code, message)
	}
	c.send(msg)
}

// send queues a message for the client. The gate's reader serves every client, so a client
// that stopped reading is given GateClientStall, then cut off.
func (c *client) send(msg []byte) {
	select {
	case c.out <- msg:
		return
	case <-c.done:
		return
	default:
	}
	t := time.NewTimer(budgets.GateClientStall)
	defer t.Stop()
	select {
	case c.out <- msg:
	case <-c.done:
	case <-t.C:
		c.g.log(fmt.Sprintf("cdpgate: a client read nothing for %s with %d messages waiting; cut off", budgets.GateClientStall, len(c.out)))
		c.end()
	}
}

// write is the client's only writer.
func (c *client) write() {
	for {
		select {
		case msg := <-c.out:
			if err := c.link.Send(msg); err != nil {
				c.end()
				return
			}
		case <-c.done:
			return
		}
	}
}

// end closes the client's link and lets go of its sessions; the browser is told to detach
// its browser session, which detaches every session it attached and disposes the contexts
// it made, as when a DevTools connection closes.
func (c *client) end() {
	c.once.Do(func() {
		close(c.done)
		_ = c.link.Close()
		g := c.g
		g.mu.Lock()
		c.ended = true
		delete(g.clients, c)
		for sid, o := range g.owner {
			if o == c {
				delete(g.owner, sid)
			}
		}
		for id, k := range g.calls {
			if k.c == c {
				delete(g.calls, id)
			}
		}
		live := g.err == nil
		g.mu.Unlock()
		if live {
			g.notify("Target.detachFromTarget", map[string]string{"sessionId": c.browser})
		}
	})
}

func isInteger(raw []byte) bool {
	if len(raw) == 0 || len(raw) > 20 {
		return false
	}
	for _, c := range raw {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
