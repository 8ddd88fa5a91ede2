package runtime_test

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestAttachedMeansNotOurs: sessions in a browser an Allocator launched, one shared by
// several sessions as `run` shares its browser, are not attached, and closing one leaves the
// browser to the allocator; sessions in a browser at a DevTools URL are attached. (Before the
// allocator, `run` launched its browser beside the runtime and attached every session to it,
// so Attached() was true for a browser fastbrowser owned.)
func TestAttachedMeansNotOurs(t *testing.T) {
	alloc := runtime.NewLaunchAllocator(chromium.Options{})
	t.Cleanup(func() {
		if err := alloc.Close(); err != nil {
			t.Errorf("allocator Close: %v", err)
		}
	})
	a := runtimetest.OpenWith(t, runtimetest.Options{Allocator: alloc})
	b := runtimetest.OpenWith(t, runtimetest.Options{Allocator: alloc})
	if a.Attached() || b.Attached() {
		t.Fatalf("sessions in a launched, shared browser: Attached() %t, %t; want false", a.Attached(), b.Attached())
	}
	pid := a.BrowserPid()
	if pid == 0 || b.BrowserPid() != pid {
		t.Fatalf("browser pids %d and %d: want one launched browser for both sessions", pid, b.BrowserPid())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if !runtimetest.PidAlive(pid) {
		t.Fatal("closing one session stopped the shared browser")
	}
	if _, err := transport.Dispatch(bg, b, transport.ListTabs{}); err != nil {
		t.Fatalf("the other session after one closed: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := alloc.Close(); err != nil {
		t.Fatal(err)
	}
	proctest.RequireGroupGone(t, pid, budgets.ProcessStopGrace().Default)

	shared, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	viaAllocator := runtimetest.OpenWith(t, runtimetest.Options{Allocator: runtime.NewAttachAllocator(shared.WebSocketURL())})
	viaURL := runtimetest.Open(t)
	for name, rt := range map[string]*runtime.Runtime{"attach allocator": viaAllocator, "CDPURL": viaURL} {
		if !rt.Attached() || rt.BrowserPid() != 0 {
			t.Errorf("%s: Attached() %t, BrowserPid %d; want true, 0", name, rt.Attached(), rt.BrowserPid())
		}
	}
}

// TestAllocatorRelaunchesOnce: N openers finding the allocator's browser dead at the same
// time get one new browser between them, and one relaunch is reported; the dead one's
// process group and profile are gone.
func TestAllocatorRelaunchesOnce(t *testing.T) {
	before := runtimetest.Take()
	alloc := runtime.NewLaunchAllocator(chromium.Options{})
	defer alloc.Close()
	var mu sync.Mutex
	var relaunches []runtime.Relaunch
	onRelaunch := func(rl runtime.Relaunch) {
		mu.Lock()
		relaunches = append(relaunches, rl)
		mu.Unlock()
	}
	_, dead, err := alloc.AcquireForTest(bg, onRelaunch)
	if err != nil {
		t.Fatal(err)
	}
	_ = syscall.Kill(dead.Pid(), syscall.SIGKILL)
	if !proctest.PollUntil(budgets.ProcessStopGrace().Default, dead.Exited) {
		t.Fatal("the browser survived SIGKILL")
	}
	const openers = 4
	got := make([]*chromium.Browser, openers)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if _, got[i], err = alloc.AcquireForTest(bg, onRelaunch); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, b := range got {
		if b == nil || b == dead || b != got[0] {
			t.Fatalf("openers got browsers %v (the dead one was %p): want one new browser for all", got, dead)
		}
	}
	if len(relaunches) != 1 || relaunches[0].Err != nil || relaunches[0].Cleanup != nil || relaunches[0].Died != "signal killed" {
		t.Errorf("relaunches %+v, want one, ok, after signal killed", relaunches)
	}
	proctest.RequireGroupGone(t, dead.Pid(), budgets.ProcessStopGrace().Default)
	if _, err := os.Stat(dead.ProfileDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dead browser's profile %s: %v", dead.ProfileDir(), err)
	}
	if err := alloc.Close(); err != nil {
		t.Error(err)
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Error(err)
	}
}

// TestClosedAllocatorOpensNothing: after Close no session opens in the allocator and nothing
// is launched (a browser launched then would have no one to stop it).
func TestClosedAllocatorOpensNothing(t *testing.T) {
	before := runtimetest.Take()
	a := runtime.NewLaunchAllocator(chromium.Options{})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := runtime.Open(bg, runtime.Options{Allocator: a})
	if oe := transport.AsOperationError("", err); oe.Code != transport.CodeSessionEnded {
		t.Fatalf("open after Close: %v, want session_ended", err)
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Error(err)
	}
}
