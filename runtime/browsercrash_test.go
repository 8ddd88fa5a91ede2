package runtime_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// freezePage has a button whose click handler blocks the page's main thread in a
// synchronous request to /freeze: a click on it is surely still in flight when /freeze is
// reached.
const freezePage = `<!doctype html><title>Freeze</title>
<button onclick="var x = new XMLHttpRequest(); x.open('GET', '/freeze', false); x.send(); document.title = 'Thawed'">Freeze</button>`

// freezeSite serves freezePage at / and signals reached when the click's request arrives;
// /freeze then holds until the browser goes away (or the budget a click may take).
func freezeSite() (*httptest.Server, <-chan struct{}) {
	reached := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, freezePage)
		case "/freeze":
			select {
			case reached <- struct{}{}:
			default:
			}
			select {
			case <-r.Context().Done():
			case <-time.After(budgets.Request().Ceiling):
			}
		default:
			http.NotFound(w, r)
		}
	}))
	return srv, reached
}

// TestBrowserKilledDuringAct is issue 16 item 11 at the runtime: SIGKILL of the session's
// browser while a click is in flight fails that click browser_crashed with mutationState
// unknown, and every later call browser_crashed, not_attempted, retry never: the session
// knows its browser is gone. Close then leaves nothing behind.
func TestBrowserKilledDuringAct(t *testing.T) {
	site, reached := freezeSite()
	defer site.Close()
	bin, _ := runtimetest.Binary()
	before := runtimetest.Take()
	rt, err := runtime.Open(bg, runtime.Options{WorkerPath: bin, WorkerArgs: []string{"worker"}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	browserPid := rt.BrowserPid()
	if browserPid == 0 {
		t.Fatal("a launched browser must have a pid")
	}
	go func() {
		<-reached
		_ = syscall.Kill(browserPid, syscall.SIGKILL)
	}()
	_, err = transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Freeze")}})
	oe := wantCode(t, err, transport.CodeBrowserCrashed, transport.Unknown)
	if oe.Retry != transport.RetryNever || oe.Operation != transport.OpAct {
		t.Errorf("in-flight act: %+v", oe)
	}
	// The raw rpcc/websocket error stays local: no socket text or address in the message.
	for _, raw := range []string{"websocket", "rpcc", "reset by peer", "127.0.0.1"} {
		if strings.Contains(oe.Message, raw) {
			t.Errorf("message %q carries %q", oe.Message, raw)
		}
	}
	later := []transport.Operation{&transport.Read{}, &transport.Observe{}, &transport.ListTabs{},
		&transport.Act{Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Freeze")}},
		&transport.Navigate{URL: site.URL + "/"}}
	for _, op := range later {
		_, err := rt.Call(bg, op, nil)
		oe := wantCode(t, err, transport.CodeBrowserCrashed, transport.NotAttempted)
		if oe.Retry != transport.RetryNever || oe.Operation != op.OpName() {
			t.Errorf("later %s: %+v", op.OpName(), oe)
		}
	}
	// A worker that then goes too is not the cause: the session still says its browser died.
	workerPid := rt.WorkerPid()
	_ = syscall.Kill(workerPid, syscall.SIGKILL)
	if !proctest.PollUntil(budgets.ProcessStopGrace().Default, func() bool { return !runtimetest.PidAlive(workerPid) }) {
		t.Fatalf("worker %d survived SIGKILL", workerPid)
	}
	_, err = transport.Dispatch(bg, rt, transport.Read{})
	oe = wantCode(t, err, transport.CodeBrowserCrashed, transport.NotAttempted)
	if oe.Retry != transport.RetryNever {
		t.Errorf("after the worker died too: %+v", oe)
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("Close after the browser died: %v", err)
	}
	if err := runtimetest.AwaitNoLeaks(before); err != nil {
		t.Fatal(err)
	}
}

// TestTabClosingItselfIsNotABrowserCrash: a tab's socket closing gives the very same error
// as a dead browser's, so only the browser connection may say browser_crashed. A popup that
// closes itself leaves tab_not_found for that tab and a session that keeps working.
func TestTabClosingItselfIsNotABrowserCrash(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<!doctype html><title>Opener</title><button onclick="window.open('/closer', '_blank')">Open</button>`)
		case "/closer":
			fmt.Fprint(w, `<!doctype html><title>Closer</title><button onclick="window.close()">Close me</button>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()
	rt := runtimetest.Open(t)
	popup := popupFrom(t, rt, site.URL+"/", "Open")
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Tab: popup, Kind: transport.AssertTitle, Value: "Closer"}); err != nil {
		t.Fatal(err)
	}
	_, actErr := transport.Dispatch(bg, rt, transport.Act{Tab: popup, Action: transport.ActClick, Target: transport.Target{Role: "button", Name: transport.Match("Close me")}})
	if errors.Is(actErr, transport.ErrCode(transport.CodeBrowserCrashed)) {
		t.Fatalf("a tab closing itself was taken for a dead browser: %v", actErr)
	}
	// Until the worker has seen the target go, the tab's calls fail on its closed socket.
	deadline := time.Now().Add(budgets.Navigation().Default)
	var err error
	for {
		_, err = transport.Dispatch(bg, rt, transport.Read{Tab: popup})
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the popup never closed")
		}
	}
	wantCode(t, err, transport.CodeTabNotFound, transport.NotAttempted)
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil || rd.Title != "Opener" {
		t.Fatalf("the opener after the popup closed: %+v, %v", rd, err)
	}
}
