package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// manyServe is one `fastbrowser serve --binding-origin …` process spoken to as a client
// would: frames in, answers matched to their requests by id (sessions answer out of order).
type manyServe struct {
	t     testing.TB
	once  sync.Once
	cmd   *exec.Cmd
	in    io.WriteCloser
	mu    sync.Mutex
	next  int
	waits map[string]chan map[string]any
	log   *serveLog     // serve's debug log (startManyServeLogged), else nil
	read  chan struct{} // closed when serve's stdout has been read to its end
}

// serveLog collects serve's debug log line by line as it is written, so a test waits for a
// line as an event.
type serveLog struct {
	mu    sync.Mutex
	lines []string
	eof   bool
	wake  chan struct{} // closed and replaced on each line and at the end
}

func newServeLog(r io.Reader) *serveLog {
	l := &serveLog{wake: make(chan struct{})}
	go func() {
		lines := bufio.NewScanner(r)
		lines.Buffer(nil, 1<<20)
		for lines.Scan() {
			l.note(lines.Text(), false)
		}
		l.note("", true)
	}()
	return l
}

func (l *serveLog) note(line string, eof bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if eof {
		l.eof = true
	} else {
		l.lines = append(l.lines, line)
	}
	close(l.wake)
	l.wake = make(chan struct{})
}

// waitFor waits until a line containing want has been logged, or within has passed, or
// serve's stderr has ended without it.
func (l *serveLog) waitFor(want string, within time.Duration) error {
	timer := time.NewTimer(within)
	defer timer.Stop()
	for seen := 0; ; {
		l.mu.Lock()
		lines, eof, wake := l.lines[seen:], l.eof, l.wake
		seen = len(l.lines)
		l.mu.Unlock()
		for _, line := range lines {
			if strings.Contains(line, want) {
				return nil
			}
		}
		if eof {
			return fmt.Errorf("serve's log ended without %q", want)
		}
		select {
		case <-wake:
		case <-timer.C:
			return fmt.Errorf("serve did not log %q within %s", want, within)
		}
	}
}

// waitForEnd waits until serve's stderr has been read to its end, or within has passed.
func (l *serveLog) waitForEnd(within time.Duration) error {
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		l.mu.Lock()
		eof, wake := l.eof, l.wake
		l.mu.Unlock()
		if eof {
			return nil
		}
		select {
		case <-wake:
		case <-timer.C:
			return fmt.Errorf("serve's log did not end within %s", within)
		}
	}
}

func startManyServe(t testing.TB, args ...string) *manyServe {
	t.Helper()
	return launchManyServe(t, false, args...)
}

// startManyServeLogged is startManyServe with FASTBROWSER_DEBUG=1: serve's debug log
// (stderr) is read into s.log, where a test waits for what serve reports on its own.
func startManyServeLogged(t testing.TB, args ...string) *manyServe {
	t.Helper()
	return launchManyServe(t, true, args...)
}

func launchManyServe(t testing.TB, debug bool, args ...string) *manyServe {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr io.Reader
	if debug {
		cmd.Env = append(os.Environ(), "FASTBROWSER_DEBUG=1")
		stderr, _ = cmd.StderrPipe()
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &manyServe{t: t, cmd: cmd, in: in, waits: map[string]chan map[string]any{}, read: make(chan struct{})}
	if debug {
		s.log = newServeLog(stderr)
	}
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 16<<20)
	if !lines.Scan() || !strings.Contains(lines.Text(), `"ready"`) {
		t.Fatalf("no ready frame: %q", lines.Text())
	}
	go func() {
		defer close(s.read)
		for lines.Scan() {
			var f map[string]any
			if json.Unmarshal(lines.Bytes(), &f) != nil {
				continue
			}
			id, _ := f["id"].(string)
			s.mu.Lock()
			ch := s.waits[id]
			delete(s.waits, id)
			s.mu.Unlock()
			if ch != nil {
				ch <- f
			}
		}
	}()
	t.Cleanup(s.stop)
	return s
}

// stop ends serve by ending its input (which closes every session) and waits for it. Wait
// closes serve's pipes, so it comes only after their readers reached the end (os/exec: a
// Wait before the reads are done can cut them short).
func (s *manyServe) stop() {
	s.once.Do(func() {
		s.in.Close()
		bound := time.NewTimer(30 * time.Second)
		defer bound.Stop()
		logRead := make(chan struct{})
		go func() {
			if s.log != nil {
				_ = s.log.waitForEnd(30 * time.Second)
			}
			close(logRead)
		}()
		for _, read := range []chan struct{}{s.read, logRead} {
			select {
			case <-read:
			case <-bound.C:
				_ = s.cmd.Process.Kill()
				s.t.Error("serve did not close its output after its input ended")
				_ = s.cmd.Wait()
				return
			}
		}
		if err := s.cmd.Wait(); err != nil {
			s.t.Errorf("serve exited: %v", err)
		}
	})
}

// send writes one frame and returns where its answer will arrive.
func (s *manyServe) send(session, task, op string, request any) chan map[string]any {
	s.t.Helper()
	s.mu.Lock()
	s.next++
	id := fmt.Sprint(s.next)
	ch := make(chan map[string]any, 1)
	s.waits[id] = ch
	s.mu.Unlock()
	frame := map[string]any{"v": 1, "id": id, "op": op, "request": request}
	if session != "" {
		frame["session"], frame["task"] = session, task
	}
	b, _ := json.Marshal(frame)
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		s.t.Fatal(err)
	}
	return ch
}

func (s *manyServe) await(ch chan map[string]any) map[string]any {
	s.t.Helper()
	select {
	case f := <-ch:
		return f
	case <-time.After(60 * time.Second):
		s.t.Fatal("no answer within 60s")
		return nil
	}
}

// call sends one frame and waits for its answer.
func (s *manyServe) call(session, task, op string, request any) map[string]any {
	s.t.Helper()
	return s.await(s.send(session, task, op, request))
}

func result(t testing.TB, f map[string]any) map[string]any {
	t.Helper()
	if f["error"] != nil {
		t.Fatalf("error: %v", f["error"])
	}
	return f["result"].(map[string]any)
}

func errCode(f map[string]any) string {
	e, _ := f["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func errPath(f map[string]any) string {
	e, _ := f["error"].(map[string]any)
	p, _ := e["path"].(string)
	return p
}

// Each ownership, expiry, ended and not-found code, and deny-by-default narrowing.
func TestServeManyOwnershipCodes(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServeLogged(t, "--binding-origin", site.URL)

	for _, c := range []struct {
		origins []string
		path    string
	}{
		{[]string{}, "request.allowedOrigins"},
		{[]string{"http://elsewhere.test"}, "request.allowedOrigins[0]"},
		{[]string{site.URL, "*"}, "request.allowedOrigins[1]"},
		{[]string{"ftp://x"}, "request.allowedOrigins[0]"},
	} {
		f := s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": c.origins})
		if errCode(f) != "invalid_request" || errPath(f) != c.path {
			t.Errorf("openSession %v: %v; want invalid_request at %s", c.origins, f["error"], c.path)
		}
	}
	a := result(t, s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}}))["session"].(string)
	result(t, s.call(a, "A", "navigate", map[string]any{"url": site.URL + "/about"}))
	// close is refused and ends nothing: not the connection, not another task's session.
	if f := s.call(a, "B", "close", nil); errCode(f) != "invalid_request" {
		t.Errorf("close on the host: %v; want invalid_request", f["error"])
	}

	if f := s.call(a, "B", "read", nil); errCode(f) != "session_not_owned" {
		t.Errorf("another task's request: %v; want session_not_owned", f["error"])
	}
	if f := s.call("s999", "A", "read", nil); errCode(f) != "session_not_found" {
		t.Errorf("an unknown session: %v; want session_not_found", f["error"])
	}
	if f := s.call("", "", "read", nil); errCode(f) != "invalid_request" {
		t.Errorf("a frame naming no session: %v; want invalid_request", f["error"])
	}
	if f := s.call("", "", "closeSession", map[string]any{"session": a, "task": "B"}); errCode(f) != "session_not_owned" {
		t.Errorf("closing another task's session: %v; want session_not_owned", f["error"])
	}
	result(t, s.call("", "", "closeSession", map[string]any{"session": a, "task": "A"}))
	if f := s.call(a, "A", "read", nil); errCode(f) != "session_ended" {
		t.Errorf("a closed session: %v; want session_ended", f["error"])
	}
	// A new session never gets the ended id back, and starts empty.
	b := result(t, s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}}))["session"].(string)
	if b == a {
		t.Fatalf("the ended id %s was reopened", a)
	}
	if lt := result(t, s.call(b, "A", "observe", nil)); strings.Contains(fmt.Sprint(lt["url"]), "/about") {
		t.Errorf("the new session shows the ended one's page: %v", lt["url"])
	}

	const idleS = 1
	idle := result(t, s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}, "idleTimeoutS": idleS}))["session"].(string)
	result(t, s.call(idle, "A", "listTabs", nil))
	// Only the host's idle watch ends it (a request would renew it): wait for serve to log
	// the end, within the idle time and a request's budget for the watch to get round to it.
	if err := s.log.waitFor("session "+idle+" ended: expired", idleS*time.Second+budgets.Request().Default); err != nil {
		t.Fatal(err)
	}
	if f := s.call(idle, "A", "listTabs", nil); errCode(f) != "session_expired" {
		t.Fatalf("an idle session after serve logged its expiry: %v; want session_expired", f["error"])
	}
	ended := result(t, s.call("", "", "endTask", map[string]any{"task": "A"}))
	if fmt.Sprint(ended["closed"]) != "["+b+"]" {
		t.Errorf("endTask closed %v, want [%s] (the live one)", ended["closed"], b)
	}
	if f := s.call(b, "A", "read", nil); errCode(f) != "session_ended" {
		t.Errorf("after endTask: %v; want session_ended", f["error"])
	}
}

// Two tasks' sessions run at once and cannot see or touch each other's tabs.
func TestServeManyTasksIsolated(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL)
	open := func(task string) string {
		return result(t, s.call("", "", "openSession", map[string]any{"task": task, "allowedOrigins": []string{site.URL}}))["session"].(string)
	}
	a, b := open("A"), open("B")
	// Both batches are in flight together: B's fast one answers while A's waits on /slow.
	slow := s.send(a, "A", "batch", map[string]any{"actions": []map[string]any{{"action": "navigate", "url": site.URL + "/slow?ms=3000"}}})
	fast := s.send(b, "B", "batch", map[string]any{"actions": []map[string]any{{"action": "navigate", "url": site.URL + "/about"}}})
	fb := s.await(fast)
	var fa map[string]any
	select {
	case fa = <-slow:
		t.Error("A's slow batch answered before B's fast one: the sessions did not run in parallel")
	default:
		fa = s.await(slow)
	}
	if r := result(t, fb); r["posture"] != "ok" {
		t.Fatalf("B's batch: %v", r)
	}
	if r := result(t, fa); r["posture"] != "ok" {
		t.Fatalf("A's batch: %v", r)
	}
	tabsA := result(t, s.call(a, "A", "listTabs", nil))
	tabsB := result(t, s.call(b, "B", "listTabs", nil))
	urlsOf := func(r map[string]any) string { return fmt.Sprint(r["tabs"]) }
	if strings.Contains(urlsOf(tabsA), "/about") || strings.Contains(urlsOf(tabsB), "/slow") {
		t.Fatalf("a session sees the other's tab:\nA %s\nB %s", urlsOf(tabsA), urlsOf(tabsB))
	}
	// Handles are the session's own: A's handle, said in B's session, names B's tab (or
	// none), never A's page.
	tabA := tabsA["selected"].(string)
	f := s.call(b, "B", "read", map[string]any{"tab": tabA})
	if r, _ := f["result"].(map[string]any); f["error"] == nil && !strings.HasSuffix(fmt.Sprint(r["url"]), "/about") {
		t.Fatalf("B read with A's tab handle %s and got another page: %v", tabA, r["url"])
	}
}

// A page classed login, with handoffClasses ["login"], ends the batch with handoff_required
// and the remaining actions skipped.
func TestServeManyHandoff(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL)
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "H", "allowedOrigins": []string{site.URL}, "handoffClasses": []string{"login"}}))["session"].(string)
	r := result(t, s.call(id, "H", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/about"},
		{"action": "navigate", "url": site.URL + "/form"},
		{"action": "type", "target": map[string]any{"role": "textbox", "name": "Username"}, "text": "ada"},
		{"action": "page_text"},
	}}))
	actions := r["actions"].([]any)
	status := func(i int) string { return actions[i].(map[string]any)["status"].(string) }
	if r["posture"] != "handoff_required" || r["code"] != "handoff_required" {
		t.Fatalf("batch posture %v code %v; want handoff_required", r["posture"], r["code"])
	}
	if status(0) != "ok" || status(1) != "ok" || status(2) != "skipped" || status(3) != "skipped" {
		t.Fatalf("statuses %s %s %s %s; want ok ok skipped skipped", status(0), status(1), status(2), status(3))
	}
	if pc := actions[1].(map[string]any)["pageClass"]; pc != "login" {
		t.Fatalf("the /form action's page class %v, want login", pc)
	}
	// Nothing was typed: the skipped action never ran.
	if ob := result(t, s.call(id, "H", "read", nil)); strings.Contains(fmt.Sprint(ob), "ada") {
		t.Fatalf("the skipped type ran: %v", ob)
	}
}

// The Python and Node example clients run against serve and real Chromium.
func TestClientExamples(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"python3", "../../examples/clients/python/client.py"},
		{"node", "../../examples/clients/node/client.js"},
	} {
		out, err := exec.Command(c[0], c[1], bin, site.URL).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "serve exited 0") {
			t.Errorf("%s %s: %v\n%s", c[0], c[1], err, out)
		}
	}
}

// A batch's screenshot and download are kept in the artifact store and reported as asset
// refs with their SHA-256, never bytes.
func TestServeManyBatchAssets(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL, "--artifacts", t.TempDir())
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "D", "allowedOrigins": []string{site.URL}}))["session"].(string)
	r := result(t, s.call(id, "D", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/download/page"},
		{"action": "download", "target": map[string]any{"role": "link", "name": "Monthly report"}},
		{"action": "screenshot"},
	}}))
	if r["posture"] != "ok" {
		t.Fatalf("batch: %v", r)
	}
	actions := r["actions"].([]any)
	dl := actions[1].(map[string]any)["result"].(map[string]any)
	art, _ := dl["artifact"].(map[string]any)
	if art == nil || len(fmt.Sprint(art["sha256"])) != 64 || dl["payload"] != nil {
		t.Fatalf("download result %v: want an artifact with its sha256 and no payload", dl)
	}
	shot := actions[2].(map[string]any)["result"].(map[string]any)
	if arts, _ := shot["artifacts"].([]any); len(arts) == 0 || shot["payloads"] != nil {
		t.Fatalf("screenshot result %v: want artifacts and no payloads", shot)
	}
}

// closeSession while a batch runs: the batch ends with session_ended and runs nothing more.
func TestServeManyCloseDuringBatch(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL)
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "C", "allowedOrigins": []string{site.URL}}))["session"].(string)
	batch := s.send(id, "C", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/slow?ms=3000"},
		{"action": "page_text"},
		{"action": "page_text"},
	}})
	// The close runs outside the session's lane: it may overtake the batch frame, which is
	// then refused whole (nothing ran), or end the batch during its slow navigate.
	result(t, s.call("", "", "closeSession", map[string]any{"session": id, "task": "C"}))
	f := s.await(batch)
	if f["error"] != nil {
		e := f["error"].(map[string]any)
		if e["code"] != "session_ended" || e["mutationState"] != "not_attempted" {
			t.Fatalf("batch refused with %v, want session_ended, not_attempted", e)
		}
		return
	}
	r := result(t, f)
	actions := r["actions"].([]any)
	if r["code"] != "session_ended" {
		t.Fatalf("batch code %v (posture %v), want session_ended: %v", r["code"], r["posture"], actions)
	}
	for _, i := range []int{1, 2} {
		if st := actions[i].(map[string]any)["status"]; st != "skipped" {
			t.Errorf("action %d: %v after the session ended; want skipped", i, st)
		}
	}
}
