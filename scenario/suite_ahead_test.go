package scenario

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// aheadSite serves the fixture site plus:
//   - /wait-worker?origin=O: holds the request until a worker whose base policy names O is
//     live (bounded by the worker-readiness budget), then answers a page titled "opened"
//     (or "not opened"): a scenario navigating there proves another scenario's session was
//     opened while it ran;
//   - /set: sets a cookie and a localStorage item; /check: says whether both are there;
//   - /cancel: calls onCancel and holds the request until the browser drops it.
func aheadSite(t *testing.T, onCancel func()) *httptest.Server {
	site := fixture.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := func(title, body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><title>%s</title><p>%s</p>", title, body)
		}
		switch r.URL.Path {
		case "/wait-worker":
			origin := "--allowed-origin " + r.URL.Query().Get("origin")
			if proctest.PollUntil(budgets.WorkerReady().Default, func() bool { return len(proctest.Cmdlines(origin)) > 0 }) {
				page("opened", "the next session is open")
				return
			}
			page("not opened", "no session for the next scenario")
		case "/set":
			http.SetCookie(w, &http.Cookie{Name: "pipe", Value: "1", Path: "/"})
			page("set", `<script>localStorage.setItem("pipe", "1")</script>`)
		case "/check":
			cookie := "cookie:no"
			if c, err := r.Cookie("pipe"); err == nil && c.Value == "1" {
				cookie = "cookie:yes"
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><title>checking</title><p>%s</p><script>document.title = "storage:" + (localStorage.getItem("pipe") || "none")</script>`, cookie)
		case "/cancel":
			onCancel()
			select {
			case <-r.Context().Done():
			case <-time.After(budgets.Navigation().Default):
			}
		default:
			site.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// markerOrigin is an origin no other test's worker names: a scenario allowing it is found
// among the processes by its worker's --allowed-origin flag.
func markerOrigin(name string) string {
	return fmt.Sprintf("http://%s-%d.test", name, time.Now().UnixNano())
}

func aheadDoc(id, base string, origins []string, ops ...map[string]any) map[string]any {
	doc := map[string]any{"version": 1, "id": id, "fixture": map[string]any{"baseUrl": base}, "operations": ops}
	if origins != nil {
		doc["allowedOrigins"] = origins
	}
	return doc
}

func navigateOp(url string) map[string]any {
	return map[string]any{"op": "navigate", "request": map[string]any{"url": url}}
}

func assertOp(kind, value string) map[string]any {
	return map[string]any{"op": "assert", "request": map[string]any{"kind": kind, "value": value}}
}

func workersNaming(origin string) map[int]string {
	return proctest.Cmdlines("--allowed-origin " + origin)
}

// TestLookAheadOpensTheNextSessionWhileOneRuns: with --jobs 1, scenario 2's session (its
// worker, opened with scenario 2's own allowedOrigins) is live while scenario 1's
// operations run — scenario 1 waits for it on a page — and scenario 2 then runs in it,
// its report saying how long that open took apart from its duration. Without the
// look-ahead, scenario 2's worker starts only after scenario 1 ended: scenario 1 fails.
func TestLookAheadOpensTheNextSessionWhileOneRuns(t *testing.T) {
	site := aheadSite(t, nil)
	marker := markerOrigin("second")
	loaded := []*Loaded{
		load(t, aheadDoc("first", site.URL, nil, navigateOp("/wait-worker?origin="+marker), assertOp("title", "opened"))),
		load(t, aheadDoc("second", site.URL, []string{site.URL, marker}, navigateOp("/"), assertOp("titleContains", "Fixture"))),
		load(t, aheadDoc("third", site.URL, nil, navigateOp("/"))),
	}
	rep := runPassing(t, loaded, 1)
	if first, second := rep.Scenarios[0], rep.Scenarios[1]; first.SessionOpenedAheadMs != 0 || second.SessionOpenedAheadMs <= 0 || !hasEventOf(second, "runtime", "open", "ok") {
		t.Errorf("opened ahead: first %d ms, second %d ms with events %+v; want only the second's", first.SessionOpenedAheadMs, second.SessionOpenedAheadMs, second.Events)
	}
	if left := workersNaming(marker); len(left) != 0 {
		t.Errorf("scenario 2's worker outlived the run: %v", left)
	}
}

// runPassing runs loaded in a suite of its own at jobs and expects every scenario to pass.
func runPassing(t *testing.T, loaded []*Loaded, jobs int) *Report {
	t.Helper()
	s := suiteOf(t, loaded, jobs, nil)
	defer s.Close()
	rep := s.Run(context.Background())
	for _, sr := range rep.Scenarios {
		if sr.Status != StatusPassed {
			t.Errorf("%s: %s %+v %+v", sr.ID, sr.Status, sr.Error, sr.Operations)
		}
	}
	return rep
}

func liveNow(s *Suite) int {
	s.live.mu.Lock()
	defer s.live.mu.Unlock()
	return s.live.live
}

func hasEventOf(sr ScenarioReport, kind, name, status string) bool {
	for _, e := range sr.Events {
		if e.Kind == kind && e.Name == name && e.Status == status {
			return true
		}
	}
	return false
}

// TestLookAheadBound: never more than Jobs+1 sessions live at once, at --jobs 1 and 2, and
// the look-ahead did open one beyond the running scenarios (the bound is reached).
func TestLookAheadBound(t *testing.T) {
	site := aheadSite(t, nil)
	for _, jobs := range []int{1, 2} {
		t.Run(fmt.Sprint("jobs", jobs), func(t *testing.T) {
			var loaded []*Loaded
			for i := range 6 {
				loaded = append(loaded, load(t, aheadDoc(fmt.Sprint("s", i), site.URL, nil, navigateOp("/"), assertOp("titleContains", "Fixture"))))
			}
			s := suiteOf(t, loaded, jobs, nil)
			defer s.Close()
			rep := s.Run(context.Background())
			if rep.Status != StatusPassed {
				t.Fatalf("run %s: %+v", rep.Status, rep.Scenarios)
			}
			if peak := s.live.peakLive(); peak > jobs+1 || peak < 2 {
				t.Errorf("at most %d sessions were live at once, want 2 to %d", peak, jobs+1)
			}
			if liveNow(s) != 0 {
				t.Errorf("%d sessions still counted live after the run", liveNow(s))
			}
		})
	}
}

// TestLookAheadLeavesNothing: a session opened ahead for a scenario that then never runs —
// --fail-fast after scenario 1 failed, or Ctrl-C during scenario 1 — is closed before Run
// returns: its worker reaped (and with it its browser context); closing the suite then
// leaves no process or profile.
func TestLookAheadLeavesNothing(t *testing.T) {
	for _, c := range []string{"fail-fast", "interrupt"} {
		t.Run(c, func(t *testing.T) {
			before := runtimetest.Take()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			site := aheadSite(t, cancel)
			marker := markerOrigin("skipped")
			wait := navigateOp("/wait-worker?origin=" + marker)
			firstOps := []map[string]any{wait, assertOp("title", "opened"), map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "not this", "wait": "none"}}}
			if c == "interrupt" {
				firstOps = []map[string]any{wait, assertOp("title", "opened"), navigateOp("/cancel")}
			}
			loaded := []*Loaded{
				load(t, aheadDoc("first", site.URL, nil, firstOps...)),
				load(t, aheadDoc("skipped", site.URL, []string{site.URL, marker}, navigateOp("/"))),
			}
			s := suiteOf(t, loaded, 1, nil)
			s.opts.FailFast = c == "fail-fast"
			rep := s.Run(ctx)
			first, skipped := rep.Scenarios[0], rep.Scenarios[1]
			if first.Operations[1].Status != StatusPassed {
				t.Errorf("scenario 2's session was not opened while scenario 1 ran: %+v", first.Operations)
			}
			if skipped.Status != StatusSkipped {
				t.Errorf("scenario 2: %s, want skipped", skipped.Status)
			}
			if left := workersNaming(marker); len(left) != 0 {
				t.Errorf("the session opened ahead for the skipped scenario is still live after Run: %v", left)
			}
			if liveNow(s) != 0 {
				t.Errorf("%d sessions still counted live after Run", liveNow(s))
			}
			s.Close()
			if err := runtimetest.AwaitNoLeaks(before); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestLookAheadIsolation: scenario 2's session, opened while scenario 1 ran, is a context of
// its own: the cookie and localStorage item scenario 1 set (and saw) are not there.
func TestLookAheadIsolation(t *testing.T) {
	site := aheadSite(t, nil)
	marker := markerOrigin("isolated")
	loaded := []*Loaded{
		load(t, aheadDoc("setter", site.URL, nil, navigateOp("/wait-worker?origin="+marker), assertOp("title", "opened"),
			navigateOp("/set"), navigateOp("/check"), assertOp("textContains", "cookie:yes"), assertOp("title", "storage:1"))),
		load(t, aheadDoc("reader", site.URL, []string{site.URL, marker}, navigateOp("/check"), assertOp("textContains", "cookie:no"), assertOp("title", "storage:none"))),
	}
	rep := runPassing(t, loaded, 1)
	if rep.Scenarios[1].SessionOpenedAheadMs <= 0 {
		t.Errorf("the reader's session was not opened ahead")
	}
}

// TestLookAheadRetryOpensFresh: a scenario whose first attempt ran in a session opened ahead
// runs its retry in a session it opens itself (not opened ahead, a new worker).
func TestLookAheadRetryOpensFresh(t *testing.T) {
	var hits atomic.Int32
	site := fixture.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/flaky" {
			title := "fails"
			if hits.Add(1) > 1 {
				title = "passes"
			}
			fmt.Fprintf(w, "<!doctype html><title>%s</title>", title)
			return
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	loaded := []*Loaded{
		load(t, aheadDoc("first", srv.URL, nil, navigateOp("/"))),
		load(t, aheadDoc("flaky", srv.URL, nil, navigateOp("/flaky"), map[string]any{"op": "assert", "request": map[string]any{"kind": "title", "value": "passes", "wait": "none"}})),
	}
	s := suiteOf(t, loaded, 1, nil)
	s.opts.Retries = 1
	defer s.Close()
	rep := s.Run(context.Background())
	sr := rep.Scenarios[1]
	if sr.Status != StatusFlaky || len(sr.Attempts) != 2 {
		t.Fatalf("flaky: %s with %d attempts", sr.Status, len(sr.Attempts))
	}
	if a1, a2 := sr.Attempts[0], sr.Attempts[1]; a1.SessionOpenedAheadMs <= 0 || a2.SessionOpenedAheadMs != 0 || sr.SessionOpenedAheadMs != a1.SessionOpenedAheadMs {
		t.Errorf("opened ahead: attempt 1 %d ms, attempt 2 %d ms, scenario %d ms; want attempt 1's alone", a1.SessionOpenedAheadMs, a2.SessionOpenedAheadMs, sr.SessionOpenedAheadMs)
	}
	if strings.Contains(fmt.Sprint(sr.Attempts[1].Events), "relaunch") {
		t.Errorf("attempt 2 relaunched the browser: %+v", sr.Attempts[1].Events)
	}
}

// staleSession is a fault injected into the look-ahead: a session whose browser or worker
// died while it waited (Stale), counting its closes.
type staleSession struct {
	Session
	stale  bool
	closes atomic.Int32
}

func (f *staleSession) Stale() bool  { return f.stale }
func (f *staleSession) Close() error { f.closes.Add(1); return nil }

// TestLookAheadTakesOnlyUsable: a session opened ahead is handed over only when it is usable;
// one whose browser died since (Stale, or a crash some session noted after its open began)
// is closed instead, and the scenario opens its own; one that was never taken is closed
// once at the end.
func TestLookAheadTakesOnlyUsable(t *testing.T) {
	a := []*Loaded{{File: &File{ID: "one"}}, {File: &File{ID: "two"}}}
	for _, c := range []struct {
		name          string
		stale, crash  bool
		take, skipped bool
		want          bool // taken
	}{
		{"usable", false, false, true, false, true},
		{"its browser or worker exited", true, false, true, false, false},
		{"a crash was noted since its open began", false, true, true, false, false},
		{"its scenario was skipped", false, false, false, true, false},
		{"the run ended", false, false, false, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sess := &staleSession{stale: c.stale}
			la := newLookAhead(context.Background(), a, func(context.Context, *Loaded, *aheadSession) (Session, error) { return sess, nil },
				func() (func(), bool) { return func() {}, true })
			la.starting(a[0])
			la.fill()
			if c.crash {
				la.crashed()
			}
			var got Session
			if c.take {
				p := la.starting(a[1])
				if p == nil {
					t.Fatal("nothing was opened ahead for scenario two")
				}
				got = p.take(context.Background(), la, func(string, string, string) {})
				p.discard()
			}
			if c.skipped {
				la.skipped(a[1])
			}
			la.end()
			if taken := got != nil; taken != c.want {
				t.Errorf("taken %v, want %v", taken, c.want)
			}
			if want := map[bool]int32{true: 0, false: 1}[c.want]; sess.closes.Load() != want {
				t.Errorf("closed %d times, want %d", sess.closes.Load(), want)
			}
		})
	}
}
