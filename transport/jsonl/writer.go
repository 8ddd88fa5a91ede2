package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Writer writes frames, one line each. It is safe for concurrent use: every frame goes
// out in a single Write call under a mutex, so frames never interleave.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	maxLine int
	broken  error // set when a Write sent part of a frame: the stream is torn for good
}

// NewWriter returns a Writer of frames up to maxLine bytes, newline excluded. A maxLine
// of zero or less means DefaultMaxLine.
func NewWriter(w io.Writer, maxLine int) *Writer {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Writer{w: w, maxLine: maxLine}
}

// buffers are reused across frames; encoding happens outside the mutex, so concurrent
// senders only queue for the Write itself.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled keeps the occasional huge frame's buffer from being held by the pool.
const maxPooled = 64 << 10

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxPooled {
		b.Reset()
		buffers.Put(b)
	}
}

// WriteFrame marshals v with encoding/json, without HTML escaping (frames are not
// embedded in HTML, and escaping would only make them harder to read), and writes it
// as one line. A frame longer than the limit is refused with *FrameTooLargeError and
// nothing is written.
func (w *Writer) WriteFrame(v any) error {
	buf := getBuffer()
	defer putBuffer(buf)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	// Encode writes compact JSON followed by "\n"; it escapes newlines inside strings
	// and compacts the output of MarshalJSON methods, so the frame is a single line.
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("jsonl: encoding frame: %w", err)
	}
	return w.write(buf.Bytes())
}

// WriteAround writes head, v's encoding (as WriteFrame encodes it) and tail as one line, in
// one Write: a caller whose frame wraps an encoded value in fixed text (a response around its
// result) encodes the value once, straight into the line, instead of encoding it on its own
// and again as raw JSON inside the frame, which compacts it a second time. head and tail must
// hold no newline. An encoding failure is an *EncodeError, and nothing is written.
func (w *Writer) WriteAround(head []byte, v any, tail []byte) error {
	if bytes.IndexByte(head, '\n') >= 0 || bytes.IndexByte(tail, '\n') >= 0 {
		return errors.New("jsonl: frame text contains a newline; nothing was written")
	}
	buf := getBuffer()
	defer putBuffer(buf)
	buf.Write(head)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return &EncodeError{Err: err}
	}
	buf.Truncate(buf.Len() - 1) // Encode's "\n"
	buf.Write(tail)
	buf.WriteByte('\n')
	return w.write(buf.Bytes())
}

// WriteRaw writes line, an already-encoded JSON value, as one line. It refuses a line
// containing "\n" (it would arrive as two frames) or longer than the limit, and writes
// nothing then. Whether line is valid JSON is the caller's responsibility.
func (w *Writer) WriteRaw(line []byte) error {
	if bytes.IndexByte(line, '\n') >= 0 {
		return errors.New("jsonl: raw frame contains a newline; nothing was written")
	}
	buf := getBuffer()
	defer putBuffer(buf)
	buf.Grow(len(line) + 1)
	buf.Write(line)
	buf.WriteByte('\n')
	return w.write(buf.Bytes())
}

// write sends frame, which ends in its newline, in exactly one Write call.
func (w *Writer) write(frame []byte) error {
	if size := len(frame) - 1; size > w.maxLine {
		return &FrameTooLargeError{Size: size, Limit: w.maxLine}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken != nil {
		return w.broken
	}
	n, err := w.w.Write(frame)
	if err == nil && n < len(frame) {
		err = io.ErrShortWrite
	}
	if err != nil && n > 0 {
		// The reader now holds part of a frame; anything written after it would be
		// glued to that part, so no further frame may go out on this stream.
		w.broken = fmt.Errorf("jsonl: stream torn by an earlier partial write: %w", err)
	}
	return err
}
