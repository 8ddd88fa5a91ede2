package process

import (
	"bytes"
	"io"
	"os"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// maxLineBytes bounds one line held in memory; bufio.Scanner would instead stop the whole
// stream at its 64 KiB default, and then the child blocks on a full pipe.
const maxLineBytes = budgets.ChildLineBytes

// drain reads f until EOF or until afterReap closes it. The capture gets every read as it
// comes, the sink gets output in batches of whole lines (one queue entry per read, not per
// line, so a chatty child stays cheap) and the tap gets each line. It never waits on the
// sink.
func drain(f *os.File, q *sinkQueue, tap func(string), capture io.Writer) {
	defer f.Close()
	defer q.streamDone()
	if q == nil && tap == nil {
		w := io.Discard
		if capture != nil {
			w = capture
		}
		_, _ = io.Copy(w, f)
		return
	}
	lt := lineTap{tap: tap}
	buf := make([]byte, maxLineBytes)
	held := 0 // buf[:held] is a line not yet ended
	for {
		n, err := f.Read(buf[held:])
		if n > 0 && capture != nil {
			_, _ = capture.Write(buf[held : held+n])
		}
		held += n
		if end := bytes.LastIndexByte(buf[:held], '\n') + 1; end > 0 {
			q.offer(buf[:end])
			lt.lines(buf[:end])
			held = copy(buf, buf[end:held])
		} else if held == len(buf) {
			q.offer(buf)
			lt.cut(buf)
			held = 0
		}
		if err != nil {
			if held > 0 { // a last line without its newline
				q.offer(buf[:held])
				lt.cut(buf[:held])
			}
			return
		}
	}
}

// lineTap feeds StderrTap. A line longer than maxLineBytes reaches it cut to its head; the
// rest of that line is skipped until the next newline, where it resynchronises.
type lineTap struct {
	tap       func(string)
	inCutLine bool
}

// lines takes whole lines, each ending in '\n'.
func (lt *lineTap) lines(b []byte) {
	if lt.tap == nil {
		return
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if lt.inCutLine {
			lt.inCutLine = false
		} else {
			lt.tap(string(bytes.TrimSuffix(b[:i], []byte{'\r'})))
		}
		b = b[i+1:]
	}
}

// cut takes the head of a line with no newline yet (buffer full, or end of stream).
func (lt *lineTap) cut(b []byte) {
	if lt.tap == nil {
		return
	}
	if !lt.inCutLine {
		lt.tap(string(bytes.TrimSuffix(b, []byte{'\r'})))
	}
	lt.inCutLine = true
}
