package cdpgate

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport/cdppipe"
)

// Socketpair returns the two ends of a new private socket: give one to Serve and the other
// to a client (a worker's ExtraFiles). No path names it, so only the processes holding an
// end can use it. Both ends are close-on-exec; os/exec clears that on a child's copy.
func Socketpair() (gateEnd, clientEnd *os.File, err error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("cdpgate: socketpair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "cdpgate"), os.NewFile(uintptr(fds[1]), "cdpgate-client"), nil
}

// Serve carries the client at the other end of f, one end of a Socketpair, through the
// gate, once the browser has given it a browser session of its own (within
// budgets.GateAttach, or ctx). The gate owns f from the call on, whatever it returns.
func (g *Gate) Serve(ctx context.Context, f *os.File) error {
	conn, err := net.FileConn(f)
	_ = f.Close()
	if err != nil {
		return fmt.Errorf("cdpgate: %w", err)
	}
	return g.serve(ctx, &socketLink{conn: conn, r: cdppipe.NewReader(conn, budgets.BrowserMessageBytes), w: cdppipe.NewWriter(conn)})
}

// Dial connects a client in this process: a NUL-framed stream (cdppipe.Stream) for an rpcc
// connection (rpcc.WithDialer and a JSON codec), with a browser session of its own.
func (g *Gate) Dial(ctx context.Context) (io.ReadWriteCloser, error) {
	mine, theirs, err := Socketpair()
	if err != nil {
		return nil, err
	}
	if err := g.Serve(ctx, mine); err != nil {
		_ = theirs.Close()
		return nil, err
	}
	conn, err := net.FileConn(theirs)
	_ = theirs.Close()
	if err != nil {
		return nil, fmt.Errorf("cdpgate: %w", err)
	}
	return cdppipe.NewStream(conn), nil
}

// socketLink is a client on a socket, NUL-framed.
type socketLink struct {
	conn net.Conn
	r    *cdppipe.Reader
	w    *cdppipe.Writer
}

func (l *socketLink) Next() ([]byte, error) { return l.r.Next() }
func (l *socketLink) Send(msg []byte) error { return l.w.Write(msg) }
func (l *socketLink) Close() error          { return l.conn.Close() }
