package runtime_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestWorkerKilledDuringOperation is acceptance 6: SIGKILL of the worker mid-navigation
// fails the call with worker_crashed/unknown within the request budget, and Close leaves no
// Chromium, worker or profile behind. This session launches (and so owns) its own browser.
func TestWorkerKilledDuringOperation(t *testing.T) {
	// The kill waits until the slow navigation's request reaches the server, so the call is
	// surely in flight (a fixed sleep lost that race on a loaded machine).
	slowReached := make(chan struct{}, 1)
	fixtureSite := fixture.Handler()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case slowReached <- struct{}{}:
			default:
			}
		}
		fixtureSite.ServeHTTP(w, r)
	}))
	defer site.Close()
	bin, _ := runtimetest.Binary()
	before := runtimetest.Take()
	rt, err := runtime.Open(bg, runtime.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}})
	if err != nil {
		t.Fatal(err)
	}
	if rt.Attached() {
		t.Fatal("a launched browser must be owned, not attached")
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	workerPid := rt.WorkerPid()
	go func() {
		select {
		case <-slowReached:
		case <-time.After(budgets.Navigation().Default):
		}
		_ = syscall.Kill(workerPid, syscall.SIGKILL)
	}()
	_, err = transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/slow?ms=8000"})
	oe := wantCode(t, err, transport.CodeWorkerCrashed, transport.Unknown)
	if oe.Retry != transport.RetryUnsafe || oe.Operation != "navigate" {
		t.Errorf("crash error %+v", oe)
	}
	// Later calls are refused without being attempted.
	_, err = transport.Dispatch(bg, rt, transport.Read{})
	wantCode(t, err, transport.CodeWorkerCrashed, transport.NotAttempted)

	if err := rt.Close(); err != nil {
		t.Fatalf("Close after a crash: %v", err)
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if runtimetest.PidAlive(workerPid) {
		t.Errorf("worker %d still alive", workerPid)
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Fatal(err)
	}
}

// TestCloseRemovesOwnedBrowser checks the ordinary path: an owned browser's process group
// and temporary profile are gone after Close.
func TestCloseRemovesOwnedBrowser(t *testing.T) {
	bin, _ := runtimetest.Binary()
	before := runtimetest.Take()
	rt, err := runtime.Open(bg, runtime.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := rt.BrowserVersion(); v == "" {
		t.Error("no browser version from the ready frame")
	}
	if before.Leaks() == nil {
		t.Error("expected a browser, a worker and a profile while the session is open")
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Fatal(err)
	}
}

// TestOpenFailsCleanlyWithMissingBrowser: a launch that fails leaves no process behind,
// the worker included where it was started before the launch (OwnWorker: it waits for the
// browser on its input).
func TestOpenFailsCleanlyWithMissingBrowser(t *testing.T) {
	bin, _ := runtimetest.Binary()
	for _, own := range []bool{false, true} {
		before := runtimetest.Take()
		_, err := runtime.Open(bg, runtime.Options{Executable: "/nonexistent/chromium", WorkerPath: bin, WorkerArgs: []string{"worker"}, OwnWorker: own})
		wantCode(t, err, transport.CodeLaunchFailed, transport.NotAttempted)
		if err := runtimetest.AwaitNoLeaks(before); err != nil {
			t.Fatalf("OwnWorker %v: %v", own, err)
		}
	}
}

// TestOpenStopsItsBrowserWhenTheWorkerFails: a worker that cannot start after the session's
// own browser launched (and its egress proxy started) leaves neither behind.
func TestOpenStopsItsBrowserWhenTheWorkerFails(t *testing.T) {
	before := runtimetest.Take()
	_, err := runtime.Open(bg, runtime.Options{WorkerPath: filepath.Join(t.TempDir(), "no-such-worker")})
	wantCode(t, err, transport.CodeLaunchFailed, transport.NotAttempted)
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Fatal(err)
	}
}
