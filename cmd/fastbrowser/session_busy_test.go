package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// heldSite is the fixture with one more page, /held, whose answer waits until the test
// releases it: an operation navigating there is running for as long as the test wants,
// with no timing involved.
type heldSite struct {
	*httptest.Server
	arrived chan struct{} // closed when /held is first requested
	release chan struct{} // closing it lets /held answer
	once    sync.Once
}

func newHeldSite(t *testing.T) *heldSite {
	h := &heldSite{arrived: make(chan struct{}), release: make(chan struct{})}
	site := fixture.Handler()
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/held" {
			site.ServeHTTP(w, r)
			return
		}
		h.once.Do(func() { close(h.arrived) })
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>Held</title><h1>Held</h1>"))
	}))
	t.Cleanup(h.Server.Close)
	t.Cleanup(h.Release) // runs first: Close waits for /held's request
	return h
}

// Release lets /held answer (once).
func (h *heldSite) Release() {
	select {
	case <-h.release:
	default:
		close(h.release)
	}
}

// TestSessionConcurrentDoBusy is issue 12's acceptance 2: two `do` on one session at once.
// The first navigates to a page that answers only when the test says so; while it runs, the
// second gets session_busy (exit 1) at once — its process has exited while the first's still
// runs — and only the first is recorded in the history.
func TestSessionConcurrentDoBusy(t *testing.T) {
	site := newHeldSite(t)
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/")
	before := s.record(id).HistoryLength

	first := s.command(sessionCmdOpts{stdin: `{"op":"navigate","request":{"url":"` + site.URL + `/held"}}`}, "session", "do", id)
	var firstOut, firstErr bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	firstDone := make(chan error, 1)
	go func() { firstDone <- first.Wait() }()
	select {
	case <-site.arrived: // the first do is running its navigate now
	case err := <-firstDone:
		t.Fatalf("the first do ended before its page was requested (%v)\n%s", err, firstOut.String())
	case <-time.After(sessionEndLimit):
		t.Fatal("the first do never requested its page")
	}

	second := s.command(sessionCmdOpts{stdin: `{"op":"read"}`}, "session", "do", id)
	var secondOut, secondErr bytes.Buffer
	second.Stdout, second.Stderr = &secondOut, &secondErr
	start := time.Now()
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	secondDone := make(chan error, 1)
	go func() { secondDone <- second.Wait() }()
	var err error
	select {
	case err = <-secondDone:
	case <-time.After(sessionEndLimit):
		// A queued second do would wait for the first, which waits for the test.
		t.Errorf("the second do had not answered after %s while the first ran: it waits instead of failing at once", sessionEndLimit)
		site.Release()
		err = <-secondDone
	}
	latency := time.Since(start)
	busy := s.finish(second, err, secondOut.Bytes(), secondErr.Bytes(), []string{"session", "do", id, "(second)"})
	var firstExit error
	firstOver := false
	select {
	case firstExit = <-firstDone:
		firstOver = true
		t.Error("the first do had already exited when the second answered: they did not overlap")
	default:
	}
	t.Logf("session_busy answered %s after the second do's process started (acceptance 2 asks for < 100 ms)", latency)
	busy.want(t, "the second do", 1, sessions.CodeBusy)

	site.Release()
	if !firstOver {
		select {
		case firstExit = <-firstDone:
		case <-time.After(sessionEndLimit):
			t.Fatal("the first do never ended after its page answered")
		}
	}
	ran := s.finish(first, firstExit, firstOut.Bytes(), firstErr.Bytes(), []string{"session", "do", id, "(first)"})
	if ran.code != 0 || ran.str("status") != sessions.StatusDone || ran.str("page", "title") != "Held" {
		t.Errorf("the first do: exit %d\n%s", ran.code, ran.stdout)
	}
	if after := s.record(id).HistoryLength; after != before+1 {
		t.Errorf("history grew from %d to %d; want exactly one more (the first do; a busy refusal is not recorded)", before, after)
	}
	s.doRead(id, "session_busy")
}
