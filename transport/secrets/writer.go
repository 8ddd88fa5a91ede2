package secrets

import (
	"bytes"
	"io"
	"sync"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// maxHold bounds how much an incomplete line a Writer holds between writes. Past it, a
// Writer flushes all but a possible secret prefix, so a child that never writes a newline
// still reaches its reader, and memory stays bounded.
const maxHold = budgets.ScrubHoldBytes

// Writer scrubs what passes through it before writing to the underlying writer. It is
// line-buffered so that a secret split across Write calls is still seen whole; call Flush
// at the end to write out what it holds. Safe for concurrent use.
type Writer struct {
	set *Set

	mu  sync.Mutex
	w   io.Writer
	buf []byte // written to us, not yet passed on
	// covered is how many leading bytes of buf are the rest of a span whose Mask was
	// already written: a cut fell inside it. They are masked, without a second Mask.
	covered int
}

// Writer returns a Writer that scrubs with s's secrets at the time of each flush.
func (s *Set) Writer(w io.Writer) *Writer {
	return &Writer{set: s, w: w}
}

// Write buffers p and passes on every complete line, scrubbed. An incomplete trailing line
// is held until a later Write or Flush, up to maxHold bytes. It reports len(p) even when
// passing on fails, since p is held or was passed on; the error is the underlying one.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	limit := 0
	if bytes.IndexByte(p, '\n') >= 0 {
		limit = bytes.LastIndexByte(w.buf, '\n') + 1
	}
	if len(w.buf)-limit > maxHold {
		limit = len(w.buf) // cut lowers it to keep a possible secret prefix
	}
	if limit == 0 {
		return len(p), nil
	}
	return len(p), w.cut(limit, false)
}

// Flush scrubs and writes out everything held.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) == 0 {
		return nil
	}
	return w.cut(len(w.buf), true)
}

// cut passes on buf[:c], scrubbed, for the largest c <= limit at which no secret can be
// split, and keeps the rest. Unless final, c is lowered to where the held text could be
// the start of a form, since the next Write may complete it. Every occurrence that starts
// before c then ends inside buf, so its span is known here; one that runs past c has its
// Mask written now and its remaining bytes recorded in covered.
func (w *Writer) cut(limit int, final bool) error {
	tab := w.set.snapshot()
	text := string(w.buf)
	c := limit
	if !final {
		c = min(c, tab.partialStart(text))
	}
	if c == 0 {
		return nil
	}
	spans := tab.find(text)
	continued := w.covered > 0
	if continued {
		spans = merge(append(spans, span{0, w.covered}))
	}
	emit := spans[:0]
	covered := 0
	for _, sp := range spans {
		if sp.start >= c {
			break
		}
		if sp.end > c {
			covered = sp.end - c
			sp.end = c
		}
		emit = append(emit, sp)
	}
	out := render(make([]byte, 0, c), text[:c], emit, continued)
	w.buf = append(w.buf[:0], w.buf[c:]...)
	w.covered = covered
	if len(out) == 0 { // all of it was the rest of a span already masked
		return nil
	}
	_, err := w.w.Write(out)
	return err
}

// partialStart returns the first position from which the rest of text is a proper prefix
// of some form (a secret the next write may complete), or len(text) if there is none.
func (t *table) partialStart(text string) int {
	for p := max(0, len(text)-t.maxLen+1); p < len(text); p++ {
		if t.couldStart(text[p:]) {
			return p
		}
	}
	return len(text)
}
