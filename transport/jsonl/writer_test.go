package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// recorder keeps every Write call separately.
type recorder struct {
	mu     sync.Mutex
	writes [][]byte
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

func TestWriteFrame(t *testing.T) {
	var rec recorder
	w := NewWriter(&rec, 64)
	frame := map[string]any{"url": "https://example.test/?a=1&b=<2>", "text": "two\nlines"}
	if err := w.WriteFrame(frame); err != nil {
		t.Fatal(err)
	}
	want := `{"text":"two\nlines","url":"https://example.test/?a=1&b=<2>"}` + "\n"
	if len(rec.writes) != 1 || string(rec.writes[0]) != want {
		t.Fatalf("writes = %q, want one write of %q", rec.writes, want)
	}
}

func TestWriteFrameTooLarge(t *testing.T) {
	var rec recorder
	w := NewWriter(&rec, 10)
	err := w.WriteFrame("0123456789") // 12 bytes with its quotes
	var tooLarge *FrameTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Size != 12 || tooLarge.Limit != 10 {
		t.Fatalf("err = %v, want FrameTooLargeError{12, 10}", err)
	}
	if err := w.WriteFrame("01234567"); err != nil { // exactly 10 bytes
		t.Fatalf("frame at the limit: %v", err)
	}
	if len(rec.writes) != 1 {
		t.Fatalf("writes = %q, want only the frame at the limit", rec.writes)
	}
}

func TestWriteFrameUnencodable(t *testing.T) {
	var rec recorder
	if err := NewWriter(&rec, 0).WriteFrame(make(chan int)); err == nil || len(rec.writes) != 0 {
		t.Fatalf("err = %v, writes = %q", err, rec.writes)
	}
}

func TestWriteRaw(t *testing.T) {
	var rec recorder
	w := NewWriter(&rec, 8)
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"a":1}`, true},
		{`12345678`, true},
		{`123456789`, false},
		{"{\n}", false},
		{"1\n", false},
		{``, true},
	} {
		err := w.WriteRaw([]byte(tc.line))
		if (err == nil) != tc.ok {
			t.Errorf("WriteRaw(%q) = %v", tc.line, err)
		}
	}
	want := []string{"{\"a\":1}\n", "12345678\n", "\n"}
	if fmt.Sprint(strs(rec.writes)) != fmt.Sprint(want) {
		t.Fatalf("writes = %q, want %q", rec.writes, want)
	}
}

func strs(bs [][]byte) []string {
	var s []string
	for _, b := range bs {
		s = append(s, string(b))
	}
	return s
}

func TestConcurrentFramesDoNotInterleave(t *testing.T) {
	var rec recorder
	w := NewWriter(&rec, 0)
	const senders, frames = 8, 200
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := range frames {
				frame := map[string]any{"sender": s, "i": i, "pad": strings.Repeat("p", i*37)}
				var err error
				if i%2 == 0 {
					err = w.WriteFrame(frame)
				} else {
					raw, _ := json.Marshal(frame)
					err = w.WriteRaw(raw)
				}
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(rec.writes) != senders*frames {
		t.Fatalf("%d writes for %d frames", len(rec.writes), senders*frames)
	}
	next := make([]int, senders)
	for _, p := range rec.writes {
		if bytes.IndexByte(p, '\n') != len(p)-1 {
			t.Fatalf("write %q is not exactly one line", p)
		}
		var f struct{ Sender, I int }
		if err := json.Unmarshal(p, &f); err != nil {
			t.Fatalf("write %q: %v", p, err)
		}
		if f.I != next[f.Sender] {
			t.Fatalf("sender %d: frame %d arrived, want %d", f.Sender, f.I, next[f.Sender])
		}
		next[f.Sender]++
	}
}

// shortWriter accepts only part of what it is given, once.
type shortWriter struct {
	recorder
	short bool
}

func (s *shortWriter) Write(p []byte) (int, error) {
	if !s.short {
		s.short = true
		s.recorder.Write(p[:len(p)/2])
		return len(p) / 2, nil
	}
	return s.recorder.Write(p)
}

func TestPartialWriteBreaksTheStream(t *testing.T) {
	var sw shortWriter
	w := NewWriter(&sw, 0)
	if err := w.WriteFrame("first"); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("err = %v, want io.ErrShortWrite", err)
	}
	if err := w.WriteFrame("second"); !errors.Is(err, io.ErrShortWrite) {
		t.Fatalf("err = %v, want the earlier partial write reported", err)
	}
	if len(sw.writes) != 1 {
		t.Fatalf("writes = %q, want nothing after the partial write", sw.writes)
	}
}

// A Write that fails having written nothing leaves the stream intact.
func TestFailedWriteWithoutData(t *testing.T) {
	fail := true
	var rec recorder
	w := NewWriter(writerFunc(func(p []byte) (int, error) {
		if fail {
			fail = false
			return 0, errors.New("try again")
		}
		return rec.Write(p)
	}), 0)
	if err := w.WriteFrame(1); err == nil {
		t.Fatal("first write succeeded")
	}
	if err := w.WriteFrame(2); err != nil || len(rec.writes) != 1 {
		t.Fatalf("second write: %v, writes %q", err, rec.writes)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// What the Writer writes, the Reader reads back.
func TestRoundTrip(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw, 0)
	go func() {
		for i := range 3 {
			w.WriteFrame(map[string]int{"i": i})
		}
		pw.Close()
	}()
	got := readAll(t, NewReader(pr, 0), 6)
	if want := `{"i":0}|{"i":1}|{"i":2}|EOF`; strings.Join(got, "|") != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestWriteAround(t *testing.T) {
	var rec recorder
	w := NewWriter(&rec, 64)
	if err := w.WriteAround([]byte(`{"a":`), map[string]string{"t": "two\nlines <&>"}, []byte(`,"b":1}`)); err != nil {
		t.Fatal(err)
	}
	if len(rec.writes) != 1 || string(rec.writes[0]) != "{\"a\":{\"t\":\"two\\nlines <&>\"},\"b\":1}\n" {
		t.Fatalf("writes %q, want the one line", rec.writes)
	}
	for _, c := range []struct {
		head, tail string
		v          any
	}{
		{"{\n", "}", 1},
		{"{", "\n}", 1},
		{`{"a":`, "}", func() {}}, // unencodable
		{`{"a":`, "}", strings.Repeat("x", 64)},
	} {
		err := w.WriteAround([]byte(c.head), c.v, []byte(c.tail))
		if err == nil {
			t.Errorf("WriteAround(%q, %T, %q) wrote a line", c.head, c.v, c.tail)
		}
	}
	var encErr *EncodeError
	if err := w.WriteAround(nil, func() {}, nil); !errors.As(err, &encErr) {
		t.Errorf("unencodable value: %v, want an *EncodeError", err)
	}
	if len(rec.writes) != 1 {
		t.Fatalf("a refused frame was written: %q", rec.writes[1:])
	}
}
