package process

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
)

// The control socket between a process and its supervisor is one end each of a
// SOCK_SEQPACKET socketpair: messages keep their boundaries and carry file descriptors
// (SCM_RIGHTS), and the peer's death reads as EOF. A message is one JSON object, cut into
// packets of at most packetData bytes, each led by one byte saying whether more follow; its
// descriptors ride on its first packet.
const (
	packetData = 32 << 10
	packetMore = 'M'
	packetLast = 'L'
	// maxMessage is above what exec accepts (argv and environment share ARG_MAX, at most
	// 6 MiB), so no start that could succeed is refused for its size.
	maxMessage = 8 << 20
	// maxFiles bounds the descriptors on one message: stdin, stdout, stderr and ExtraFiles.
	maxFiles = 64
)

// controlConn is one end of the control socket. send is safe for concurrent use; receive
// is called from one goroutine.
type controlConn struct {
	c   *net.UnixConn
	wmu sync.Mutex
}

// newControlConn takes over f, one end of the socketpair.
func newControlConn(f *os.File) (*controlConn, error) {
	c, err := net.FileConn(f) // a duplicate, close-on-exec
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		_ = c.Close()
		return nil, errors.New("process: the control descriptor is not a unix socket")
	}
	return &controlConn{c: uc}, nil
}

// controlPair makes a connected socketpair: ours as a controlConn, the other end as a file
// for the supervisor (its fd 3).
func controlPair() (*controlConn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	cc, err := newControlConn(os.NewFile(uintptr(fds[0]), "supervisor-control"))
	if err != nil {
		_ = syscall.Close(fds[1])
		return nil, nil, err
	}
	return cc, os.NewFile(uintptr(fds[1]), "supervisor-control"), nil
}

func (cc *controlConn) send(m *wireMsg, files []*os.File) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > maxMessage {
		return fmt.Errorf("process: control message of %d bytes is over %d", len(b), maxMessage)
	}
	if len(files) > maxFiles {
		return fmt.Errorf("process: %d descriptors on one control message, at most %d", len(files), maxFiles)
	}
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	cc.wmu.Lock()
	defer cc.wmu.Unlock()
	pkt := make([]byte, 1+min(len(b), packetData))
	for {
		n := copy(pkt[1:], b)
		pkt[0] = packetLast
		if n < len(b) {
			pkt[0] = packetMore
		}
		if _, _, err := cc.c.WriteMsgUnix(pkt[:1+n], oob, nil); err != nil {
			return err
		}
		oob, b = nil, b[n:]
		if len(b) == 0 {
			break
		}
	}
	runtime.KeepAlive(files) // no finalizer may close a descriptor before sendmsg took it
	return nil
}

// receive returns the next message and the descriptors it carried (the caller's to close),
// or io.EOF once the peer has closed its end or died.
func (cc *controlConn) receive() (*wireMsg, []*os.File, error) {
	pkt := make([]byte, 1+packetData)
	oob := make([]byte, syscall.CmsgSpace(maxFiles*4))
	var body []byte
	var files []*os.File
	fail := func(err error) (*wireMsg, []*os.File, error) {
		closeFiles(files...)
		return nil, nil, err
	}
	for {
		n, oobn, flags, _, err := cc.c.ReadMsgUnix(pkt, oob)
		if err != nil {
			return fail(err)
		}
		if oobn > 0 {
			got, perr := parseRights(oob[:oobn])
			files = append(files, got...)
			if perr != nil {
				return fail(perr)
			}
			if len(body) > 0 {
				return fail(errors.New("process: control descriptors on a later packet"))
			}
		}
		if flags&(syscall.MSG_TRUNC|syscall.MSG_CTRUNC) != 0 || n == 0 {
			return fail(errors.New("process: malformed control packet"))
		}
		body = append(body, pkt[1:n]...)
		if len(body) > maxMessage {
			return fail(fmt.Errorf("process: control message over %d bytes", maxMessage))
		}
		switch pkt[0] {
		case packetMore:
			continue
		case packetLast:
		default:
			return fail(errors.New("process: malformed control packet"))
		}
		var m wireMsg
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			return fail(fmt.Errorf("process: control message: %w", err))
		}
		return &m, files, nil
	}
}

// parseRights turns SCM_RIGHTS control data into files (already close-on-exec: Go's
// ReadMsgUnix asks for MSG_CMSG_CLOEXEC).
func parseRights(oob []byte) ([]*os.File, error) {
	scms, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var files []*os.File
	for i := range scms {
		fds, err := syscall.ParseUnixRights(&scms[i])
		if err != nil {
			return files, err
		}
		for _, fd := range fds {
			files = append(files, os.NewFile(uintptr(fd), "passed"))
		}
	}
	return files, nil
}

func (cc *controlConn) closeWrite() error { return cc.c.CloseWrite() }
func (cc *controlConn) close() error      { return cc.c.Close() }
