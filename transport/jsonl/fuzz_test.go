package jsonl

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

const fuzzMaxLine = 64

// FuzzReader splits arbitrary input, delivered in various chunkings, and compares
// every result with a plain model of the rules: each "\n"-terminated piece is a line
// or, if longer than the limit, a LineTooLongError; an unterminated tail is a
// TornFrameError, or a LineTooLongError if it is already over the limit.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{"", "{}\n", "a\n\nb\r\n", "torn", "\n\n\n", string(bytes.Repeat([]byte("x"), 100)) + "\nok\n"} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, chunking uint8) {
		var in io.Reader = bytes.NewReader(data)
		switch chunking % 4 {
		case 1:
			in = iotest.OneByteReader(in)
		case 2:
			in = iotest.HalfReader(in)
		case 3:
			in = iotest.DataErrReader(in)
		}
		r := NewReader(in, fuzzMaxLine)
		want := model(data)
		var rebuilt []byte
		clean := true
		for i := 0; ; i++ {
			line, err := r.ReadLine()
			got := describe(nil, err)
			if err == nil {
				// Marked, so that a line reading "EOF" cannot pass for the end.
				got = "=" + string(line)
			}
			if i >= len(want) {
				t.Fatalf("result %d = %q after the model's end", i, got)
			}
			if got != want[i] {
				t.Fatalf("result %d = %q, want %q", i, got, want[i])
			}
			if err == nil {
				if len(line) > fuzzMaxLine || bytes.IndexByte(line, '\n') >= 0 {
					t.Fatalf("line %q breaks the rules", line)
				}
				rebuilt = append(append(rebuilt, line...), '\n')
			}
			var long *LineTooLongError
			if errors.As(err, &long) {
				clean = false
			}
			if err == io.EOF {
				if i != len(want)-1 {
					t.Fatalf("EOF after %d results, want %d", i, len(want)-1)
				}
				break
			}
		}
		if clean && !bytes.HasPrefix(data, rebuilt) {
			t.Fatalf("lines rebuild %q, not a prefix of the input %q", rebuilt, data)
		}
		if clean && len(rebuilt) != bytes.LastIndexByte(data, '\n')+1 {
			t.Fatalf("lines rebuild %d bytes, want the %d up to the last newline", len(rebuilt), bytes.LastIndexByte(data, '\n')+1)
		}
	})
}

// model is the reference answer for FuzzReader, in describe's notation.
func model(data []byte) []string {
	var out []string
	line := 0
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line++
		if i > fuzzMaxLine {
			out = append(out, "long "+itoa(line))
		} else {
			out = append(out, "="+string(data[:i]))
		}
		data = data[i+1:]
	}
	switch {
	case len(data) > fuzzMaxLine:
		out = append(out, "long "+itoa(line+1))
	case len(data) > 0:
		out = append(out, "torn "+itoa(line+1)+" "+itoa(len(data)))
	}
	return append(out, "EOF")
}
