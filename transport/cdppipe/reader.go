package cdppipe

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// ErrTooLarge is Next's error for a message longer than the Reader's bound. The rest of
// that message has been skipped, so the next Next reads the message after it.
var ErrTooLarge = errors.New("cdppipe: message over the size bound")

// Reader reads NUL-terminated messages of at most a bound each.
type Reader struct {
	br  *bufio.Reader
	max int
	buf []byte // a message that spans bufio's buffer is gathered here
}

// NewReader reads messages of at most max bytes (the NUL not counted) from r.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next message without its NUL. The bytes are valid only until the next
// call. A stream that ends inside a message is io.ErrUnexpectedEOF; one that ends between
// messages is io.EOF.
func (r *Reader) Next() ([]byte, error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice(0)
		switch {
		case err == nil:
			msg := chunk[:len(chunk)-1]
			if len(r.buf) > 0 {
				r.buf = append(r.buf, msg...)
				msg = r.buf
			}
			if len(msg) > r.max {
				return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrTooLarge, len(msg), r.max)
			}
			return msg, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if len(r.buf)+len(chunk) > r.max {
				return nil, r.skip(len(r.buf) + len(chunk))
			}
			r.buf = append(r.buf, chunk...)
		case errors.Is(err, io.EOF):
			if len(r.buf)+len(chunk) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// skip discards the rest of an oversized message, up to and including its NUL.
func (r *Reader) skip(seen int) error {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice(0)
		seen += len(chunk)
		switch {
		case err == nil:
			return fmt.Errorf("%w (%d bytes, at most %d)", ErrTooLarge, seen-1, r.max)
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return io.ErrUnexpectedEOF
		default:
			return err
		}
	}
}
