package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The Python host example (examples/clients/python/task_host.py) owns a task over `serve`:
// begin, refresh, events, finish — against real Chromium, the fixture site and a scripted
// model that counts its calls.

const hostKeyEnv = "FB_TASK_HOST_KEY"

// taskHost is the example running: its printed lines as they come, its stdin.
type taskHost struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	seen  []string
}

func startTaskHost(t *testing.T, site string, srv *modeltest.Server, args ...string) *taskHost {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cfg := srv.Config("openai", hostKeyEnv)
	cmd := exec.Command("python3", append([]string{"../../examples/clients/python/task_host.py", bin, site, cfg.BaseURL, hostKeyEnv}, args...)...)
	cmd.Env = append(os.Environ(), hostKeyEnv+"=sk-host-Key-5Jd8")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &taskHost{cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Process.Kill() // a no-op once it exited; the test's end never leaves it running
		_ = cmd.Wait()
	})
	return h
}

// until reads the host's lines until one starts with prefix (within a task's budget).
func (h *taskHost) until(t *testing.T, prefix string) string {
	t.Helper()
	limit := time.After(budgets.Task().Ceiling + budgets.ClientMargin)
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				t.Fatalf("the host ended before %q; it printed:\n%s", prefix, strings.Join(h.seen, "\n"))
			}
			h.seen = append(h.seen, l)
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-limit:
			t.Fatalf("no %q from the host within the task budget; it printed:\n%s", prefix, strings.Join(h.seen, "\n"))
		}
	}
}

// sealed waits for the host's finish and its exit, and returns the sealed accounting and
// the events it printed.
func (h *taskHost) sealed(t *testing.T) (transport.FinishTaskResult, []transport.TaskEvent) {
	t.Helper()
	var s transport.FinishTaskResult
	if err := json.Unmarshal([]byte(strings.TrimPrefix(h.until(t, "sealed "), "sealed ")), &s); err != nil {
		t.Fatal(err)
	}
	h.until(t, "serve exited 0")
	var events []transport.TaskEvent
	for _, l := range h.seen {
		if raw, ok := strings.CutPrefix(l, "event "); ok {
			var e transport.TaskEvent
			if err := json.Unmarshal([]byte(raw), &e); err != nil {
				t.Fatal(err)
			}
			events = append(events, e)
		}
	}
	return s, events
}

// TestTaskHostExample: the host begins, refreshes, hears the events and finishes a task
// that signs in; the events carry no page or model text.
func TestTaskHostExample(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	srv := modeltest.Start(t,
		// the fixture /form: Notes e5, Sign in e7
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": "e5", "text": "hi there"}},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e7"}},
	)
	h := startTaskHost(t, site.URL, srv)
	sealed, events := h.sealed(t)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, ","); got != "action,turn,action,turn,settled" {
		t.Errorf("events %s, want action,turn,action,turn,settled", got)
	}
	printed := strings.Join(h.seen, "\n")
	for _, l := range h.seen {
		if !strings.HasPrefix(l, "event ") {
			continue
		}
		for _, s := range []string{"Notes", "Sign in", "hi there", "Welcome", "Username", "sk-host-Key-5Jd8"} {
			if strings.Contains(l, s) {
				t.Errorf("an event holds page, model or secret text %q: %s", s, l)
			}
		}
	}
	if sealed.Settlement != transport.SettlementComplete || len(sealed.Actions) != 2 || len(sealed.Turns) != 2 || sealed.Result == nil {
		t.Errorf("sealed %+v, want complete with 2 turns and 2 actions\n%s", sealed, printed)
	}
	if got := len(srv.Requests()); got != 2 {
		t.Errorf("the model was asked %d times, want 2", got)
	}
}

// TestTaskHostLeaseExpires: the host's lease runs out while the first model call is in
// flight (the call is held until then); the task stops with task_stale before the next
// model call, which the scripted model never gets.
func TestTaskHostLeaseExpires(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	hold := modeltest.NewHold()
	srv := modeltest.Start(t,
		modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Notes", "action": "type"}, Hold: hold},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": "e5", "text": "hi"}},
	)
	const lease = time.Second
	h := startTaskHost(t, site.URL, srv, "complete", "1000")
	h.until(t, "refreshed")
	refreshed := time.Now() // the refresh was answered before this: the lease ends by lease from now
	holdWithin(t, hold.Arrived(), "the first model call")
	// The lease is the condition under test: the call is held until it has run out (an
	// expiry the lease's own duration decides, not a guess at how long something takes).
	time.Sleep(time.Until(refreshed.Add(lease + time.Millisecond)))
	hold.Release()
	sealed, events := h.sealed(t)
	if sealed.Error == nil || sealed.Error.Code != transport.CodeTaskStale || sealed.StoppedBy != transport.StopStale || len(sealed.Turns) != 2 {
		t.Errorf("sealed %+v, want task_stale after the first turn", sealed)
	}
	if e := events[len(events)-1]; e.Code != transport.CodeTaskStale {
		t.Errorf("settled %+v, want task_stale", e)
	}
	if got := len(srv.Requests()); got != 1 {
		t.Errorf("the model was asked %d times, want 1: a stale task asks nothing more", got)
	}
}

// TestTaskHostCancelDuringModelCall: the host cancels while the model call is in flight;
// the call is cancelled, the model is never asked again, and the sealed accounting lists
// the call as cancelled.
func TestTaskHostCancelDuringModelCall(t *testing.T) {
	site, srv, hold := heldTwoStepTask(t)
	h := startTaskHost(t, site.URL, srv, "cancel")
	h.until(t, "refreshed")
	holdWithin(t, hold.Arrived(), "the first model call")
	if _, err := io.WriteString(h.in, "cancel\n"); err != nil {
		t.Fatal(err)
	}
	holdWithin(t, hold.Abandoned(), "the model call's cancellation")
	sealed, _ := h.sealed(t)
	if sealed.Settlement != transport.SettlementIncomplete || sealed.Error == nil || sealed.Error.Code != transport.CodeCancelled || sealed.StoppedBy != transport.StopHost {
		t.Errorf("sealed %+v, want incomplete, cancelled by the host", sealed)
	}
	if len(sealed.Turns) != 1 || sealed.Turns[0].Outcome != string(transport.CodeCancelled) || len(sealed.Actions) != 0 {
		t.Errorf("sealed turns %+v actions %+v: want the one call, cancelled, no action", sealed.Turns, sealed.Actions)
	}
	if got := len(srv.Requests()); got != 1 {
		t.Errorf("the model was asked %d times, want 1: a cancel is sticky", got)
	}
}

// TestTaskHostPersonAttaches: while the first model call is in flight, the host asks the
// session for its attach endpoint and connects to it as a person's DevTools would; the call
// is cancelled, nothing is dispatched, the model is never asked again, and the sealed
// accounting says a person stopped the task. The endpoint (a credential) is never printed.
func TestTaskHostPersonAttaches(t *testing.T) {
	site, srv, hold := heldTwoStepTask(t)
	h := startTaskHost(t, site.URL, srv, "attach")
	h.until(t, "refreshed")
	holdWithin(t, hold.Arrived(), "the first model call")
	if _, err := io.WriteString(h.in, "attach\n"); err != nil {
		t.Fatal(err)
	}
	h.until(t, "attached")
	holdWithin(t, hold.Abandoned(), "the model call's cancellation by the attach")
	sealed, events := h.sealed(t)
	if sealed.Settlement != transport.SettlementIncomplete || sealed.Error == nil || sealed.Error.Code != transport.CodeCancelled || sealed.StoppedBy != transport.StopPerson {
		t.Errorf("sealed %+v, want incomplete, cancelled, stopped by a person", sealed)
	}
	if len(sealed.Actions) != 0 || len(sealed.Turns) != 1 || sealed.Turns[0].Outcome != string(transport.CodeCancelled) {
		t.Errorf("sealed turns %+v actions %+v: want the one call, cancelled, nothing dispatched", sealed.Turns, sealed.Actions)
	}
	if e := events[len(events)-1]; e.Kind != transport.EventSettled || e.StoppedBy != transport.StopPerson {
		t.Errorf("last event %+v, want settled, stopped by a person", e)
	}
	if got := len(srv.Requests()); got != 1 {
		t.Errorf("the model was asked %d times, want 1: an attach stops the task for good", got)
	}
	if printed := strings.Join(h.seen, "\n"); strings.Contains(printed, "/devtools/browser/") {
		t.Errorf("the attach endpoint reached the host's output:\n%s", printed)
	}
}

// heldTwoStepTask is the fixture site and a scripted model whose first answer (type into
// the /form's Notes) is held until the test releases it; a second (click Sign in) follows.
func heldTwoStepTask(t *testing.T) (*httptest.Server, *modeltest.Server, *modeltest.Hold) {
	t.Helper()
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	hold := modeltest.NewHold()
	srv := modeltest.Start(t,
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": "e5", "text": "hi"}, Hold: hold},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e7"}},
	)
	return site, srv, hold
}

func holdWithin(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(budgets.Task().Ceiling + budgets.ClientMargin):
		t.Fatalf("no %s within the task budget", what)
	}
}
