package process

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// maxQueuedBytes bounds output waiting for a slow sink; past it output is dropped so the
// drains, and so the child, never wait on the sink.
const maxQueuedBytes = budgets.ChildQueueBytes

// sinkQueue serialises stdout and stderr into one OutputSink from one goroutine, so the sink
// need not be safe for concurrent use.
type sinkQueue struct {
	w       io.Writer
	batches chan []byte
	queued  atomic.Int64 // bytes in batches
	dropped atomic.Int64 // bytes dropped since the last note
	open    atomic.Int32 // streams still draining; the last one closes batches
}

func newSinkQueue(w io.Writer, streams int) *sinkQueue {
	// Each drain read is one batch, so the byte bound, not the channel, normally limits.
	q := &sinkQueue{w: w, batches: make(chan []byte, 1024)}
	q.open.Store(int32(streams))
	go q.write()
	return q
}

// offer queues a copy of b or counts it as dropped. Safe on a nil queue (output discarded).
func (q *sinkQueue) offer(b []byte) {
	if q == nil {
		return
	}
	n := int64(len(b))
	if q.queued.Add(n) <= maxQueuedBytes {
		select {
		case q.batches <- append([]byte(nil), b...):
			return
		default:
		}
	}
	q.queued.Add(-n)
	q.dropped.Add(n)
}

func (q *sinkQueue) streamDone() {
	if q != nil && q.open.Add(-1) == 0 {
		close(q.batches)
	}
}

// write is the only caller of the sink. Its errors are ignored: a broken log must not stop
// the drains, which run independently of it anyway.
func (q *sinkQueue) write() {
	for b := range q.batches {
		q.noteDropped()
		_, _ = q.w.Write(b)
		q.queued.Add(-int64(len(b)))
	}
	q.noteDropped()
}

// noteDropped tells the sink's reader that output is missing, so a gap is never silent.
func (q *sinkQueue) noteDropped() {
	if n := q.dropped.Swap(0); n > 0 {
		_, _ = fmt.Fprintf(q.w, "[process: %d bytes of output dropped: output sink too slow]\n", n)
	}
}
