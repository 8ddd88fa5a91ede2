//go:build linux

package process

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// TestCaptureKeepsHeadAndTail checks the ring against the whole stream for many chunkings,
// chunks longer than the tail included.
func TestCaptureKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		headMax, tailMax := rng.IntN(50), rng.IntN(50)
		c := NewCapture(headMax, tailMax)
		var all []byte
		for range rng.IntN(30) {
			chunk := make([]byte, rng.IntN(120))
			for i := range chunk {
				chunk[i] = byte('a' + rng.IntN(26))
			}
			all = append(all, chunk...)
			if n, err := c.Write(chunk); n != len(chunk) || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
		}
		head, tail, total := c.Snapshot()
		wantHead := all[:min(len(all), headMax)]
		rest := all[len(wantHead):]
		wantTail := rest[max(0, len(rest)-tailMax):]
		if total != int64(len(all)) || !bytes.Equal(head, wantHead) || !bytes.Equal(tail, wantTail) {
			t.Fatalf("round %d (head %d, tail %d, %d bytes): got head %q tail %q total %d, want %q %q",
				round, headMax, tailMax, len(all), head, tail, total, wantHead, wantTail)
		}
		if gap := total - int64(len(head)+len(tail)); gap == 0 && !bytes.Equal(append(head, tail...), all) {
			t.Fatalf("round %d: no gap reported but head+tail is not the whole stream", round)
		}
	}
}

// A sink that takes nothing must not cost the capture a byte: it is fed by the drains.
func TestCaptureIndependentOfBlockedSink(t *testing.T) {
	t.Parallel()
	sink := &countingSink{release: make(chan struct{})}
	defer close(sink.release)
	capt := NewCapture(1<<10, 1<<10)
	// LAST-LINE goes to stdout too: stdout and stderr are drained concurrently, so a line on
	// stderr has no order against stdout bytes still in the pipe (CI once saw exactly that).
	spec := sh(`/usr/bin/yes 'a chatty line' | /usr/bin/head -c 3000000; echo LAST-LINE`)
	spec.OutputSink, spec.Capture = sink, capt
	p := start(t, spec)
	waitDone(t, p, 30*time.Second)
	select {
	case <-p.Drained():
	case <-time.After(5 * time.Second):
		t.Fatal("drains did not end after the child exited")
	}
	head, tail, total := capt.Snapshot()
	if total != int64(3000000+len("LAST-LINE\n")) {
		t.Fatalf("capture saw %d bytes", total)
	}
	if !strings.HasPrefix(string(head), "a chatty line\n") || !strings.HasSuffix(string(tail), "LAST-LINE\n") || len(head) != 1<<10 || len(tail) != 1<<10 {
		t.Fatalf("head %.40q… (%d) tail …%q (%d)", head, len(head), tail[max(0, len(tail)-40):], len(tail))
	}
}

// After Stop (the whole group gone) the drains end, even though a grandchild held stdout.
func TestDrainedAfterStop(t *testing.T) {
	t.Parallel()
	capt := NewCapture(1<<10, 0)
	spec := sh(`trap '' TERM; (trap '' TERM; echo grandchild; exec /bin/sleep 1000) & echo leader >&2; wait`)
	spec.Capture = capt
	p := start(t, spec)
	// Both lines are out before the stop (a fixed sleep lost that race on a loaded machine).
	proctest.PollUntil(10*time.Second, func() bool {
		head, _, _ := capt.Snapshot()
		return strings.Contains(string(head), "grandchild\n") && strings.Contains(string(head), "leader\n")
	})
	if err := p.Stop(300 * time.Millisecond); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	// Every writer is gone, so the drains see EOF now, not when the read ends are closed the
	// stop grace after the reap: the bound stays under that grace, with room for a loaded
	// machine to schedule them.
	limit := budgets.ProcessStopGrace().Default * 3 / 4
	select {
	case <-p.Drained():
	case <-time.After(limit):
		t.Fatalf("drains still running %s after Stop returned", limit)
	}
	if head, _, _ := capt.Snapshot(); !strings.Contains(string(head), "grandchild\n") || !strings.Contains(string(head), "leader\n") {
		t.Fatalf("capture %q", head)
	}
}
