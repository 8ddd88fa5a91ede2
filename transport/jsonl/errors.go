package jsonl

import (
	"fmt"
	"io"
)

// LineTooLongError reports a line longer than the Reader's limit. The Reader has
// dropped the line, and the next ReadLine continues with the line after it.
type LineTooLongError struct {
	Line  int // 1-based line number
	Limit int // the limit, in bytes, newline excluded
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line %d: frame longer than %d bytes; the rest of the line was discarded", e.Line, e.Limit)
}

// TornFrameError reports a stream that ended part way through a line, typically
// because the peer died while writing.
type TornFrameError struct {
	Line  int // 1-based number of the unfinished line
	Bytes int // how many bytes of it arrived
}

func (e *TornFrameError) Error() string {
	return fmt.Sprintf("line %d: stream ended inside a frame (%d bytes without a newline)", e.Line, e.Bytes)
}

// Unwrap lets callers treat a torn frame as the unexpected end of stream it is.
func (e *TornFrameError) Unwrap() error { return io.ErrUnexpectedEOF }

// FrameTooLargeError reports a frame the Writer refused to send because it is longer
// than the limit; nothing was written.
type FrameTooLargeError struct {
	Size  int // the encoded frame's length, newline excluded
	Limit int
}

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("frame of %d bytes is longer than the limit of %d bytes; nothing was written", e.Size, e.Limit)
}

// EncodeError reports a value WriteAround could not encode; nothing was written.
type EncodeError struct{ Err error }

func (e *EncodeError) Error() string { return "jsonl: encoding frame: " + e.Err.Error() }

func (e *EncodeError) Unwrap() error { return e.Err }
