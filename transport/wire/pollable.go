package wire

import (
	"io"
	"os"
	"strconv"
	"syscall"
	"time"
)

// PollableInput returns in as a reader the Go runtime's poller waits on, when in is a pipe
// read in blocking mode: a worker's stdin, as its parent hands it over. Serve reads its
// input on one goroutine and runs each request on another. Over a blocking pipe, the reader
// goes back into a read system call that holds its thread, so the request it hands over
// waits for another thread to be woken to run it: one more thread wake-up on every
// request's way in, which on a busy machine is one more wait for a CPU. A pollable reader
// parks its goroutine instead, and the request runs at once on the same thread.
//
// The pipe is opened again through /proc/self/fd (Linux), which gives this process a file
// description of its own: the inherited one, which others may share, keeps its blocking
// mode. Anything else (a terminal, a file, a socket, another system, a reader that is no
// *os.File) comes back as it was. The returned close releases the new descriptor; in stays
// the caller's.
func PollableInput(in io.Reader) (io.Reader, func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	if f.SetReadDeadline(time.Time{}) == nil {
		return in, func() {} // pollable already (os.Pipe's ends are)
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return in, func() {}
	}
	raw, err := f.SyscallConn() // not f.Fd(), which would put a pollable file in blocking mode
	if err != nil {
		return in, func() {}
	}
	var p *os.File
	_ = raw.Control(func(fd uintptr) {
		// O_NONBLOCK: opening a pipe to read waits for a writer otherwise, and the parent
		// may already have closed its end. os.OpenFile makes a pipe pollable by itself.
		p, err = os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(fd)), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	})
	if p == nil || err != nil {
		return in, func() {}
	}
	return p, func() { _ = p.Close() }
}
