package secrets

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// assertClean fails if any registered form of s appears in out.
func assertClean(t *testing.T, s *Set, out string) {
	t.Helper()
	for _, f := range s.snapshot().forms {
		if strings.Contains(out, f) {
			t.Fatalf("form %q escaped in %.200q", f, out)
		}
	}
}

// writeChunks writes text through a Writer in the given chunk sizes (cycled), flushes, and
// returns what reached the underlying writer.
func writeChunks(t *testing.T, s *Set, text string, sizes ...int) string {
	t.Helper()
	var out bytes.Buffer
	w := s.Writer(&out)
	for i := 0; len(text) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(text))
		if m, err := w.Write([]byte(text[:n])); m != n || err != nil {
			t.Fatalf("Write = %d, %v", m, err)
		}
		text = text[n:]
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestWriterSecretSplitAcrossWrites(t *testing.T) {
	multiline := "line one\nline two"
	s := newSet(t, secret, multiline)
	text := "log: user typed " + secret + " into the field\nkey:\n" + multiline + "\nend"
	want := s.Scrub(text)
	for i := 0; i <= len(text); i++ {
		var out bytes.Buffer
		w := s.Writer(&out)
		w.Write([]byte(text[:i]))
		w.Write([]byte(text[i:]))
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		assertClean(t, s, out.String())
		if out.String() != want {
			t.Fatalf("split at %d: got %q, want %q", i, out.String(), want)
		}
	}
	// One byte at a time.
	if got := writeChunks(t, s, text, 1); got != want {
		t.Errorf("byte by byte: got %q, want %q", got, want)
	}
}

func TestWriterPassesCompleteLines(t *testing.T) {
	s := newSet(t, secret)
	var out bytes.Buffer
	w := s.Writer(&out)
	fmt.Fprintf(w, "first %s\nsecond ", secret)
	if got := out.String(); got != "first "+Mask+"\n" {
		t.Errorf("after first write: %q", got)
	}
	fmt.Fprintf(w, "half\n")
	if got := out.String(); got != "first "+Mask+"\nsecond half\n" {
		t.Errorf("after second write: %q", got)
	}
	fmt.Fprintf(w, "no newline")
	w.Flush()
	if got := out.String(); !strings.HasSuffix(got, "\nno newline") {
		t.Errorf("after Flush: %q", got)
	}
}

func TestWriterBoundsWhatItHolds(t *testing.T) {
	s := newSet(t, secret)
	var out bytes.Buffer
	w := s.Writer(&out)
	big := bytes.Repeat([]byte("x"), 1<<20)
	w.Write(big)
	if held := len(big) - out.Len(); held > maxHold || out.Len() == 0 {
		t.Fatalf("1 MiB without newline: %d bytes out, %d held", out.Len(), held)
	}
	w.Flush()
	if out.Len() != len(big) {
		t.Fatalf("after Flush: %d bytes, want %d", out.Len(), len(big))
	}
}

func TestWriterSecretStraddlesBound(t *testing.T) {
	s := newSet(t, secret)
	// A write past the bound ending in each possible prefix of the secret, completed by the next.
	for j := 0; j <= len(secret); j++ {
		first := strings.Repeat("x", 4*maxHold-j) + secret[:j]
		var out bytes.Buffer
		w := s.Writer(&out)
		w.Write([]byte(first))
		if out.Len() == 0 {
			t.Fatalf("j=%d: nothing passed on before Flush", j)
		}
		w.Write([]byte(secret[j:] + " tail"))
		w.Flush()
		assertClean(t, s, out.String())
		if got, want := out.String(), s.Scrub(first+secret[j:]+" tail"); got != want {
			t.Fatalf("j=%d: output differs from Scrub (len %d vs %d)", j, len(got), len(want))
		}
	}
	// Secrets sprinkled through newline-free text, written in sizes that put the cut in
	// every relation to them.
	var b strings.Builder
	for b.Len() < 8*maxHold {
		b.WriteString(strings.Repeat("y", 1009))
		b.WriteString(secret)
	}
	text := b.String()
	want := s.Scrub(text)
	for _, size := range []int{4093, 65535, 65537, 300000} {
		got := writeChunks(t, s, text, size, 7)
		assertClean(t, s, got)
		if got != want {
			t.Fatalf("chunks of %d: output differs from Scrub", size)
		}
	}
}

// TestWriterSpanLongerThanHold masks a run of one self-overlapping secret longer than the
// hold bound: the cut must fall inside the masked span and still give one Mask.
func TestWriterSpanLongerThanHold(t *testing.T) {
	s := newSet(t, "aaaa")
	text := "start " + strings.Repeat("a", 3*maxHold) + " end\n"
	want := "start " + Mask + " end\n"
	if got := s.Scrub(text); got != want {
		t.Fatalf("Scrub = %.80q", got)
	}
	for _, size := range []int{1000, maxHold + 1, 1 << 20} {
		if got := writeChunks(t, s, text, size); got != want {
			t.Errorf("chunks of %d: %.80q", size, got)
		}
	}
}

func TestWriterConcurrentWrites(t *testing.T) {
	s := newSet(t, secret)
	var out bytes.Buffer
	w := s.Writer(&out)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				fmt.Fprintf(w, "g%d i%d %s\n", g, i, secret)
			}
		}()
	}
	// Secrets added while writing are honoured from the next flush on.
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Add("late-secret")
	}()
	wg.Wait()
	w.Flush()
	assertClean(t, s, out.String())
	if n := strings.Count(out.String(), "\n"); n != 800 {
		t.Errorf("%d lines, want 800", n)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if !strings.HasSuffix(line, " "+Mask) {
			t.Fatalf("line torn or unmasked: %q", line)
		}
	}
}

// FuzzWriter checks that, for any text and any way of splitting it into writes, the
// Writer passes on exactly what Scrub gives for the whole text.
func FuzzWriter(f *testing.F) {
	f.Add("a "+secret+" b\nc", []byte{3, 5})
	f.Add(secret+secret+"\n"+secret, []byte{1})
	f.Add("x\nline one\nline two\ny", []byte{9, 1, 2})
	s := newSet(f, secret, "line one\nline two", "abab")
	f.Fuzz(func(t *testing.T, text string, sizes []byte) {
		ints := []int{len(text) + 1}
		if len(sizes) > 0 {
			ints = ints[:0]
			for _, b := range sizes {
				ints = append(ints, int(b)+1)
			}
		}
		if got, want := writeChunks(t, s, text, ints...), s.Scrub(text); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}
