package jsonl

import (
	"bytes"
	"io"
)

// minBuffer is the Reader's first buffer size: enough for typical frames in one read,
// small enough that an idle Reader costs little.
const minBuffer = 4096

// maxEmptyReads is how many (0, nil) reads in a row the Reader tolerates before it
// reports io.ErrNoProgress instead of spinning, as bufio.Reader does.
const maxEmptyReads = 100

// Reader splits a stream into lines. It is not safe for concurrent use.
type Reader struct {
	r        io.Reader
	maxLine  int
	buf      []byte // buf[start:end] is read but not yet returned
	start    int
	end      int
	scanned  int   // buf[start:scanned] is known to hold no newline
	line     int   // number of the line last returned or refused
	skipping bool  // discarding the rest of an over-long line
	eof      bool  // the underlying reader has reported io.EOF
	err      error // a read error not yet returned; returned once, as bufio.Reader does
}

// NewReader returns a Reader of lines up to maxLine bytes, newline excluded. A
// maxLine of zero or less means DefaultMaxLine.
func NewReader(r io.Reader, maxLine int) *Reader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	return &Reader{r: r, maxLine: maxLine}
}

// ReadLine returns the next line without its trailing "\n". A trailing "\r" is kept:
// the JSON layer treats it as whitespace. The slice is valid until the next call.
//
//   - At a clean end of stream it returns (nil, io.EOF).
//   - If the stream ends inside a line it returns (nil, *TornFrameError), which wraps
//     io.ErrUnexpectedEOF; the next call returns io.EOF.
//   - A line longer than the limit is refused with (nil, *LineTooLongError) as soon as
//     the limit is passed; the rest of it is read and dropped by the next call, which
//     then returns the following line.
//   - Other read errors are returned as they are, after any complete lines read before
//     them, and the next call reads again.
//   - An empty line is returned as an empty, non-nil slice.
func (r *Reader) ReadLine() ([]byte, error) {
	if r.skipping {
		if err := r.skipLine(); err != nil {
			return nil, err
		}
	}
	for {
		if i := bytes.IndexByte(r.buf[r.scanned:r.end], '\n'); i >= 0 {
			nl := r.scanned + i
			line := r.buf[r.start:nl:nl]
			r.start, r.scanned = nl+1, nl+1
			r.line++
			if len(line) > r.maxLine {
				return nil, &LineTooLongError{Line: r.line, Limit: r.maxLine}
			}
			return line, nil
		}
		r.scanned = r.end
		if pending := r.end - r.start; pending > r.maxLine {
			// Refuse now rather than at the newline, which may be far away or never come.
			r.start, r.scanned = r.end, r.end
			r.line++
			r.skipping = true
			return nil, &LineTooLongError{Line: r.line, Limit: r.maxLine}
		}
		if r.eof {
			if pending := r.end - r.start; pending > 0 {
				r.start, r.scanned = r.end, r.end
				r.line++
				return nil, &TornFrameError{Line: r.line, Bytes: pending}
			}
			return nil, io.EOF
		}
		if err := r.takeErr(); err != nil {
			return nil, err
		}
		r.fill()
	}
}

// LineNumber returns the 1-based number of the line last returned or refused.
func (r *Reader) LineNumber() int { return r.line }

// skipLine drops input up to and including the next newline (or the end of the
// stream), one buffer at a time, so an over-long line never sits in memory whole.
func (r *Reader) skipLine() error {
	for {
		if i := bytes.IndexByte(r.buf[r.start:r.end], '\n'); i >= 0 {
			r.start += i + 1
			r.scanned = r.start
			r.skipping = false
			return nil
		}
		r.start, r.scanned = r.end, r.end
		if r.eof {
			r.skipping = false
			return nil
		}
		if err := r.takeErr(); err != nil {
			return err
		}
		r.fill()
	}
}

func (r *Reader) takeErr() error {
	err := r.err
	r.err = nil
	return err
}

// fill reads more input after buf[start:end], first moving the pending bytes to the
// front and, if they fill the buffer, growing it; the buffer never needs to be larger
// than maxLine+1, the most a line and its newline can take. A read error is kept in
// r.eof or r.err, to be acted on once the data read with it is used up.
func (r *Reader) fill() {
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.scanned -= r.start
		r.start, r.end = 0, n
	}
	if r.end == len(r.buf) {
		grown := make([]byte, max(minBuffer, min(2*len(r.buf), r.maxLine+1)))
		copy(grown, r.buf[:r.end])
		r.buf = grown
	}
	for range maxEmptyReads {
		n, err := r.r.Read(r.buf[r.end:])
		r.end += n
		switch {
		case err == io.EOF: // the reader's own EOF, not one it wraps, ends the stream
			r.eof = true
			return
		case err != nil:
			r.err = err
			return
		case n > 0:
			return
		}
	}
	r.err = io.ErrNoProgress
}
