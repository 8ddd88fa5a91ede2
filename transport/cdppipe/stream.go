package cdppipe

import (
	"bytes"
	"io"
)

// Stream makes a NUL-framed connection what an rpcc codec expects of its socket: each Write
// is one message (a trailing newline, which json.Encoder adds, is dropped), and Read yields
// the messages read with each NUL turned into a newline, so a json.Decoder reads them one
// after another.
type Stream struct {
	conn io.ReadWriteCloser
	w    *Writer
}

// NewStream frames messages on conn.
func NewStream(conn io.ReadWriteCloser) *Stream { return &Stream{conn: conn, w: NewWriter(conn)} }

func (s *Stream) Read(p []byte) (int, error) {
	n, err := s.conn.Read(p)
	for b := p[:n]; ; {
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			break
		}
		b[i] = '\n'
		b = b[i+1:]
	}
	return n, err
}

func (s *Stream) Write(p []byte) (int, error) {
	msg := bytes.TrimRight(p, "\n")
	if err := s.w.Write(msg); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close closes the connection.
func (s *Stream) Close() error { return s.conn.Close() }
