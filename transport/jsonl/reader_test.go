package jsonl

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// result is one ReadLine outcome, written compactly: the line, or "EOF",
// "torn <line> <bytes>", "long <line>" or "err <message>".
func describe(line []byte, err error) string {
	var torn *TornFrameError
	var long *LineTooLongError
	switch {
	case err == nil:
		if line == nil {
			return "<nil line>"
		}
		return string(line)
	case err == io.EOF:
		return "EOF"
	case errors.As(err, &torn):
		return "torn " + itoa(torn.Line) + " " + itoa(torn.Bytes)
	case errors.As(err, &long):
		return "long " + itoa(long.Line)
	}
	return "err " + err.Error()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func readAll(t *testing.T, r *Reader, max int) []string {
	t.Helper()
	var got []string
	for i := 0; i < max; i++ {
		line, err := r.ReadLine()
		got = append(got, describe(line, err))
		if err == io.EOF {
			break
		}
	}
	return got
}

func TestReadLine(t *testing.T) {
	plain := func(r io.Reader) io.Reader { return r }
	readers := map[string]func(io.Reader) io.Reader{
		"plain":    plain,
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	}
	cases := []struct {
		name    string
		in      string
		maxLine int
		want    []string
	}{
		{"empty stream", "", 8, []string{"EOF"}},
		{"one line", "{}\n", 8, []string{"{}", "EOF"}},
		{"several lines", "a\nbb\nccc\n", 8, []string{"a", "bb", "ccc", "EOF"}},
		{"empty lines", "\n\na\n\n", 8, []string{"", "", "a", "", "EOF"}},
		{"carriage return kept", "a\r\n\r\n", 8, []string{"a\r", "\r", "EOF"}},
		{"torn frame", "a\nbcd", 8, []string{"a", "torn 2 3", "EOF"}},
		{"torn frame only", "{", 8, []string{"torn 1 1", "EOF"}},
		{"line at the limit", "12345678\nx\n", 8, []string{"12345678", "x", "EOF"}},
		{"line over the limit", "123456789\nx\n", 8, []string{"long 1", "x", "EOF"}},
		{"long line in the middle", "a\n" + strings.Repeat("z", 100) + "\nb\n", 8, []string{"a", "long 2", "b", "EOF"}},
		{"long line then empty line", strings.Repeat("z", 20) + "\n\n", 8, []string{"long 1", "", "EOF"}},
		{"long lines in a row", strings.Repeat("z", 20) + "\n" + strings.Repeat("y", 9) + "\nok\n", 8, []string{"long 1", "long 2", "ok", "EOF"}},
		{"long line at the end of the stream", "a\n" + strings.Repeat("z", 20), 8, []string{"a", "long 2", "EOF"}},
		{"long line bigger than the buffer", strings.Repeat("z", 3*minBuffer) + "\nok\n", 8, []string{"long 1", "ok", "EOF"}},
		{"line bigger than the first buffer", strings.Repeat("z", 3*minBuffer) + "\nok\n", 4 * minBuffer, []string{strings.Repeat("z", 3*minBuffer), "ok", "EOF"}},
	}
	for _, tc := range cases {
		for rname, wrap := range readers {
			t.Run(tc.name+"/"+rname, func(t *testing.T) {
				r := NewReader(wrap(strings.NewReader(tc.in)), tc.maxLine)
				got := readAll(t, r, len(tc.want)+2)
				if strings.Join(got, "|") != strings.Join(tc.want, "|") {
					t.Fatalf("got %q\nwant %q", got, tc.want)
				}
				if again := describe(r.ReadLine()); again != "EOF" {
					t.Fatalf("after EOF: %q", again)
				}
			})
		}
	}
}

func TestLineNumber(t *testing.T) {
	r := NewReader(strings.NewReader("a\n"+strings.Repeat("z", 10)+"\nb\nc"), 4)
	for _, want := range []int{1, 2, 3, 4, 4} {
		r.ReadLine()
		if got := r.LineNumber(); got != want {
			t.Fatalf("LineNumber() = %d, want %d", got, want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&LineTooLongError{Line: 3, Limit: DefaultMaxLine}, "line 3: frame longer than 16777216 bytes; the rest of the line was discarded"},
		{&TornFrameError{Line: 3, Bytes: 12}, "line 3: stream ended inside a frame (12 bytes without a newline)"},
		{&FrameTooLargeError{Size: 20, Limit: 10}, "frame of 20 bytes is longer than the limit of 10 bytes; nothing was written"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
	if !errors.Is(&TornFrameError{}, io.ErrUnexpectedEOF) {
		t.Error("TornFrameError does not wrap io.ErrUnexpectedEOF")
	}
}

// A read error other than EOF is returned after the complete lines before it, and
// reading resumes afterwards.
func TestReadErrorIsPassedOn(t *testing.T) {
	r := NewReader(iotest.TimeoutReader(strings.NewReader("a\nb\nc")), 8)
	// TimeoutReader: the first read returns everything, the second fails, later ones work.
	if got := readAll(t, r, 6); strings.Join(got, "|") != "a|b|err timeout|torn 3 1|EOF" {
		t.Fatalf("got %q", got)
	}
	boom := errors.New("boom")
	r = NewReader(iotest.ErrReader(boom), 8)
	if _, err := r.ReadLine(); err != boom {
		t.Fatalf("err = %v, want boom", err)
	}
}

// A reader that returns (0, nil) for ever must not hang ReadLine.
func TestNoProgress(t *testing.T) {
	r := NewReader(emptyReader{}, 8)
	if _, err := r.ReadLine(); err != io.ErrNoProgress {
		t.Fatalf("err = %v, want io.ErrNoProgress", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// Lines are returned as soon as their newline arrives, without waiting for more input.
func TestPipe(t *testing.T) {
	pr, pw := io.Pipe()
	r := NewReader(pr, 16)
	go func() {
		pw.Write([]byte(`{"a":`))
		pw.Write([]byte("1}\n{\"b\""))
		pw.Write([]byte(":2}\n" + strings.Repeat("x", 40)))
		pw.Write([]byte(strings.Repeat("x", 40) + "\n{}"))
		pw.CloseWithError(io.EOF)
	}()
	got := readAll(t, r, 8)
	if want := `{"a":1}|{"b":2}|long 3|torn 4 2|EOF`; strings.Join(got, "|") != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// repeatReader yields n copies of c.
type repeatReader struct {
	c byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range k {
		p[i] = r.c
	}
	r.n -= k
	return k, nil
}

func TestHugeLineStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 20 MiB")
	}
	in := io.MultiReader(&repeatReader{c: 'x', n: 20 << 20}, strings.NewReader("\n{\"next\":true}\n"))
	r := NewReader(in, DefaultMaxLine)
	_, err := r.ReadLine()
	var long *LineTooLongError
	if !errors.As(err, &long) || long.Line != 1 || long.Limit != DefaultMaxLine {
		t.Fatalf("err = %v, want a LineTooLongError for line 1", err)
	}
	if c := cap(r.buf); c > DefaultMaxLine+64<<10 {
		t.Fatalf("buffer capacity %d after refusing the line, want at most %d", c, DefaultMaxLine+64<<10)
	}
	line, err := r.ReadLine()
	if err != nil || string(line) != `{"next":true}` || r.LineNumber() != 2 {
		t.Fatalf("next line = %q, %v (line %d)", line, err, r.LineNumber())
	}
	if c := cap(r.buf); c > DefaultMaxLine+64<<10 {
		t.Fatalf("buffer capacity %d after the next line, want at most %d", c, DefaultMaxLine+64<<10)
	}
	if _, err := r.ReadLine(); err != io.EOF {
		t.Fatalf("err = %v, want EOF", err)
	}
}
