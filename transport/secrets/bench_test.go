package secrets

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkAdd registers one secret in a new Set: every form of it and the table built over
// them, the cost paid per secret added (a run registers each {"env"} value once).
func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
		newSet(b, secret)
	}
}

// BenchmarkWriterLines passes short log lines, a few holding the secret, through a Writer:
// the cost a server's or hook's output pays per line (a scrub and a look for a secret the
// next write may complete).
func BenchmarkWriterLines(b *testing.B) {
	s := newSet(b, secret)
	var lines []string
	for i := range 100 {
		line := "GET /index.html 200 12ms\n"
		if i%10 == 0 {
			line = "token=" + secret + "\n"
		}
		lines = append(lines, line)
	}
	text := strings.Join(lines, "")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		w := s.Writer(io.Discard)
		for _, l := range lines {
			_, _ = w.Write([]byte(l))
		}
		_ = w.Flush()
	}
}

// BenchmarkScrubHead cuts a long text to a bound with the secret just past it, as the worker
// cuts read's text and outline names.
func BenchmarkScrubHead(b *testing.B) {
	s := newSet(b, secret)
	text := strings.Repeat("lorem ipsum ", 2000) + secret + strings.Repeat("y", 1<<16)
	end := len(text) - len(secret) - 1<<16 + 5
	for b.Loop() {
		s.ScrubHead(text, end)
	}
}
