package cdppipe

import (
	"io"
	"sync"
)

// smallMessage is the size below which a message and its NUL go out in one write (copied
// together); a larger one is written as is, then its NUL, to spare copying megabytes.
const smallMessage = 64 << 10

// Writer writes NUL-terminated messages; it is safe for concurrent use, and messages never
// interleave.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter writes messages to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes msg and its NUL. msg must hold no NUL byte (JSON never does: a NUL in a
// string is escaped).
func (w *Writer) Write(msg []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(msg) < smallMessage {
		w.buf = append(append(w.buf[:0], msg...), 0)
		_, err := w.w.Write(w.buf)
		return err
	}
	if _, err := w.w.Write(msg); err != nil {
		return err
	}
	_, err := w.w.Write([]byte{0})
	return err
}
