package chromium

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"
)

// DialPage is a DevTools connection to one page of the browser, for a program in this
// process that wants the page's session directly (tests, and benchmarks' direct paths): a
// client of the gate of its own, attached to the page with a flat session, every call it
// writes addressed to that session. A browser fastbrowser launched has no per-page
// websocket: it listens on no port. Close the connection when done.
func (b *Browser) DialPage(ctx context.Context, id target.ID) (*rpcc.Conn, error) {
	stream, err := b.Dial(ctx)
	if err != nil {
		return nil, err
	}
	attach := fmt.Sprintf(`{"id":1,"method":"Target.attachToTarget","params":{"targetId":%q,"flatten":true}}`, id)
	if _, err := stream.Write([]byte(attach)); err != nil {
		_ = stream.Close()
		return nil, err
	}
	dec := json.NewDecoder(stream)
	var sid string
	for sid == "" {
		var m struct {
			ID     int
			Result struct{ SessionID string }
			Error  *struct{ Message string }
		}
		if err := dec.Decode(&m); err != nil {
			_ = stream.Close()
			return nil, fmt.Errorf("attaching to page %s: %w", id, err)
		}
		switch {
		case m.ID != 1:
		case m.Error != nil:
			_ = stream.Close()
			return nil, fmt.Errorf("attaching to page %s: %s", id, m.Error.Message)
		default:
			sid = m.Result.SessionID
		}
	}
	ps := &pageStream{stream: stream, in: io.MultiReader(dec.Buffered(), stream), member: []byte(fmt.Sprintf(`"sessionId":%q,`, sid))}
	return rpcc.DialContext(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) { return ps, nil }))
}

// pageStream addresses every message rpcc writes to one flat session; what comes back for
// it carries the sessionId too, which rpcc's codec ignores.
type pageStream struct {
	stream io.ReadWriteCloser
	in     io.Reader
	member []byte
}

func (p *pageStream) Read(b []byte) (int, error) { return p.in.Read(b) }

func (p *pageStream) Write(b []byte) (int, error) {
	i := bytes.IndexByte(b, '{')
	if i < 0 {
		return p.stream.Write(b)
	}
	msg := append(append(append([]byte{}, b[:i+1]...), p.member...), b[i+1:]...)
	if _, err := p.stream.Write(msg); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (p *pageStream) Close() error { return p.stream.Close() }
