//go:build linux

package process

import (
	"bytes"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

const tenMB = 10 << 20

// chatty writes tenMB to stdout and tenMB to stderr at the same time.
var chatty = `/usr/bin/yes 'stdout line of a chatty child' | /usr/bin/head -c ` + strconv.Itoa(tenMB) + ` &
/usr/bin/yes 'stderr line of a chatty child' | /usr/bin/head -c ` + strconv.Itoa(tenMB) + ` >&2
wait`

// countingSink counts bytes written and bytes reported dropped; release, if set, blocks
// every write until closed.
type countingSink struct {
	mu      sync.Mutex
	written int64
	dropped int64
	release chan struct{}
}

var droppedNote = regexp.MustCompile(`^\[process: (\d+) bytes of output dropped: output sink too slow\]\n$`)

func (s *countingSink) Write(b []byte) (int, error) {
	if s.release != nil {
		<-s.release
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := droppedNote.FindSubmatch(b); m != nil {
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		s.dropped += n
	} else {
		s.written += int64(len(b))
	}
	return len(b), nil
}

func (s *countingSink) total() (written, dropped int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written, s.dropped
}

// requireAccounted waits until every byte the child wrote is either in the sink or reported
// dropped: output may be lost to a slow sink, but never silently.
func requireAccounted(t *testing.T, s *countingSink, want int64) (written, dropped int64) {
	t.Helper()
	ok := proctest.PollUntil(10*time.Second, func() bool {
		written, dropped = s.total()
		return written+dropped == want
	})
	if !ok {
		t.Fatalf("sink got %d bytes and %d reported dropped, want %d in total", written, dropped, want)
	}
	return written, dropped
}

func TestChattyChildDoesNotBlock(t *testing.T) {
	t.Parallel()
	sink := &countingSink{}
	spec := sh(chatty)
	spec.OutputSink = sink
	p := start(t, spec)
	waitDone(t, p, 30*time.Second)
	if p.ExitCode() != 0 {
		t.Fatalf("ExitCode() = %d", p.ExitCode())
	}
	written, dropped := requireAccounted(t, sink, 2*tenMB)
	t.Logf("sink got %d bytes, %d dropped", written, dropped)
}

func TestChattyChildWithBlockedSink(t *testing.T) {
	t.Parallel()
	sink := &countingSink{release: make(chan struct{})}
	spec := sh(chatty)
	spec.OutputSink = sink
	p := start(t, spec)
	waitDone(t, p, 30*time.Second) // the sink has not taken a single byte yet
	close(sink.release)
	_, dropped := requireAccounted(t, sink, 2*tenMB)
	if dropped == 0 {
		t.Error("a blocked sink dropped nothing; the queue cannot be that large")
	}
}

func TestChattyChildNoSink(t *testing.T) {
	t.Parallel()
	p := start(t, sh(chatty))
	waitDone(t, p, 30*time.Second)
}

// A grandchild holding stdout and stderr must not delay the reap.
func TestGrandchildHoldingOutputDoesNotHangReap(t *testing.T) {
	t.Parallel()
	sink := &lineSink{}
	spec := sh(`/bin/sleep 1000 & echo $! >&2`)
	spec.OutputSink = sink
	p := start(t, spec)
	// A reap held up by the grandchild would wait out its 1000 s sleep; 10 s only leaves a
	// loaded machine room to run the shell.
	waitDone(t, p, 10*time.Second)
	if !proctest.PollUntil(10*time.Second, func() bool { return sink.String() != "" }) {
		t.Fatal("grandchild pid never reached the sink")
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(sink.String()))
	track(pid)
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	proctest.RequireGroupGone(t, p.Pid(), 2*time.Second)
}

// lineSink is a concurrency-safe buffer, read by the test while the sink goroutine writes.
type lineSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *lineSink) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(b)
}

func (s *lineSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func TestStderrTapLines(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var lines []string
	sink := &lineSink{}
	spec := sh(`printf 'a\nb\r\n' >&2; echo out; /usr/bin/head -c 100000 /dev/zero | /usr/bin/tr '\0' x >&2; printf '\nlast' >&2`)
	spec.OutputSink = sink
	spec.StderrTap = func(line string) {
		mu.Lock()
		lines = append(lines, line)
		mu.Unlock()
	}
	p := start(t, spec)
	waitDone(t, p, 5*time.Second)
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), lines...)
	}
	if !proctest.PollUntil(5*time.Second, func() bool { return len(got()) >= 4 }) {
		t.Fatalf("tap saw %d lines, want 4", len(got()))
	}
	want := []string{"a", "b", strings.Repeat("x", maxLineBytes), "last"}
	if g := got(); len(g) != len(want) {
		t.Fatalf("tap saw %d lines, want %d", len(g), len(want))
	} else {
		for i := range want {
			if g[i] != want[i] {
				t.Errorf("tap line %d = %.40q (len %d), want %.40q (len %d)", i, g[i], len(g[i]), want[i], len(want[i]))
			}
		}
	}
	// The sink gets everything, the oversized line whole.
	if !proctest.PollUntil(5*time.Second, func() bool { return len(sink.String()) == len("a\nb\r\nout\n")+100000+len("\nlast") }) {
		t.Errorf("sink got %d bytes", len(sink.String()))
	}
	if !strings.Contains(sink.String(), "out\n") {
		t.Error("stdout line missing from the sink")
	}
}

// TestPipesClosedAfterReap is not parallel: it counts this process's open descriptors.
func TestPipesClosedAfterReap(t *testing.T) {
	warm := start(t, sh("exit 0")) // the poller's own descriptors open on first use
	waitDone(t, warm, 5*time.Second)
	before := openFDs(t)

	spec := sh(`/bin/sleep 1000 & echo $!`)
	spec.Stdin, spec.Stdout = true, true
	p := start(t, spec)
	grandchild := readPid(t, p.Stdout)
	waitDone(t, p, 5*time.Second)
	// The grandchild still holds the write ends; ours must close anyway, the stop grace after
	// the reap (the bound leaves a loaded machine room; the grandchild outlives it by far).
	if !proctest.PollUntil(budgets.ProcessStopGrace().Default+8*time.Second, func() bool { return openFDs(t) <= before }) {
		t.Errorf("open descriptors: %d before, %d after the reap", before, openFDs(t))
	}
	if !proctest.Alive(grandchild) {
		t.Error("grandchild died early; the test proves nothing")
	}
	if err := p.Stop(time.Second); err != nil {
		t.Fatalf("Stop: %v", err)
	}
}

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}
