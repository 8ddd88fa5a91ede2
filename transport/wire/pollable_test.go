package wire

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// blockingPipe is a pipe in blocking mode, as a worker's stdin arrives from its parent (the
// parent's os/exec hands the child's end over in blocking mode).
func blockingPipe(t *testing.T) (r, w *os.File, rfd int) {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { _ = r.Close(); _ = w.Close() })
	return r, w, p[0]
}

func TestPollableInputParksReadsOnABlockingPipe(t *testing.T) {
	r, w, rfd := blockingPipe(t)
	if err := r.SetReadDeadline(time.Time{}); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("the pipe is pollable already (%v): the test proves nothing", err)
	}
	in, done := PollableInput(r)
	defer done()
	f, ok := in.(*os.File)
	if !ok || f == r {
		t.Fatalf("PollableInput returned %T %p, want a new *os.File", in, in)
	}
	// A read with a deadline is one the poller waits on: a blocking read has no deadline.
	if err := f.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatalf("SetReadDeadline: %v (the reader is not pollable)", err)
	}
	buf := make([]byte, 8)
	if _, err := f.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read on an empty pipe: %v, want the deadline", err)
	}
	_ = f.SetReadDeadline(time.Time{})
	if _, err := w.Write([]byte("frame\n")); err != nil {
		t.Fatal(err)
	}
	n, err := f.Read(buf)
	if err != nil || string(buf[:n]) != "frame\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	_ = w.Close()
	if _, err := f.Read(buf); err != io.EOF {
		t.Fatalf("read after the writer closed: %v, want EOF", err)
	}
	// The inherited descriptor keeps its blocking mode: whoever shares it is unaffected.
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(rfd), syscall.F_GETFL, 0)
	if errno != 0 || flags&syscall.O_NONBLOCK != 0 {
		t.Fatalf("the inherited descriptor's flags are %#x (%v): it was made non-blocking", flags, errno)
	}
}

func TestPollableInputLeavesOtherReadersAlone(t *testing.T) {
	pr, pw, err := os.Pipe() // pollable already
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	file, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	ioPipe, _ := io.Pipe()
	for _, in := range []io.Reader{pr, file, ioPipe} {
		got, done := PollableInput(in)
		done()
		if got != in {
			t.Errorf("PollableInput(%T) returned a new reader, want the same", in)
		}
	}
}
