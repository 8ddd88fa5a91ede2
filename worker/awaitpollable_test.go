package worker_test

import (
	"context"
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/worker"
)

// TestAwaitBrowserInputIsPollable: a worker started with --await-browser (as the runtime
// starts every worker of its own) reads its stdin pipe through the poller too, and lets the
// reopened descriptor go when it ends. The endpoint line used to be read through a buffered
// reader that Serve then got, which PollableInput cannot see through: the pipe stayed in
// blocking mode for the whole session.
func TestAwaitBrowserInputIsPollable(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "parent")
	defer r.Close()
	defer w.Close()
	pipe, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(p[0]))
	if err != nil {
		t.Fatal(err)
	}
	// reopened lists this process's other descriptors of the same pipe.
	reopened := func() []int {
		var fds []int
		ents, _ := os.ReadDir("/proc/self/fd")
		for _, e := range ents {
			fd, err := strconv.Atoi(e.Name())
			if err != nil || fd == p[0] || fd == p[1] {
				continue
			}
			if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && l == pipe {
				fds = append(fds, fd)
			}
		}
		return fds
	}
	done := make(chan error, 1)
	go func() {
		done <- worker.Run(context.Background(), worker.Options{AwaitBrowser: true, In: r, Out: io.Discard})
	}()
	budget := time.After(budgets.WorkerReady().Default)
	for len(reopened()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("Run returned before its input ended: %v", err)
		case <-budget:
			t.Fatal("the worker waits for its browser on its blocking stdin: no pollable descriptor of the pipe")
		case <-time.After(budgets.ProcessPoll):
		}
	}
	_ = w.Close() // the parent gave up before the browser was up
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Run succeeded without a browser endpoint")
		}
	case <-time.After(budgets.WorkerReady().Default):
		t.Fatal("Run did not end with its input")
	}
	if fds := reopened(); len(fds) != 0 {
		t.Fatalf("descriptors %v of the input pipe are still open after Run returned", fds)
	}
}
