package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Hosted tasks (beginTask … finishTask) against real Chromium and the scripted model: the
// host hears content-free events, a cancel is sticky, a stale lease stops new work.

// hostedSession is a task session with the sign-in page, its events collected.
type hostedSession struct {
	rt     *runtime.Runtime
	srv    *modeltest.Server
	events chan transport.TaskEvent
}

func openHosted(t *testing.T) *hostedSession {
	t.Helper()
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg).(*runtime.Runtime)
	return &hostedSession{rt: rt, srv: srv, events: make(chan transport.TaskEvent, 64)}
}

// openHostedAt opens a hosted session on the shared test browser, allowed only site, with
// a scripted model (steps, or none yet: Script them later), on site's "/"; handoff are its
// handoff classes.
func openHostedAt(t *testing.T, site string, handoff []string, steps ...modeltest.Step) *hostedSession {
	t.Helper()
	srv := modeltest.Start(t, steps...)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site}, Model: &cfg, HandoffClasses: handoff,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/"}); err != nil {
		t.Fatal(err)
	}
	return &hostedSession{rt: rt, srv: srv, events: make(chan transport.TaskEvent, 64)}
}

// call sends op as a host's request would come: through Handle, with the connection's event
// sink on its context.
func (h *hostedSession) call(op transport.Operation) (transport.Result, error) {
	ctx := transport.WithEvents(context.Background(), func(e transport.TaskEvent) { h.events <- e })
	if err := transport.Validate(op); err != nil {
		return nil, err
	}
	return h.rt.Handle(ctx, op, nil)
}

func (h *hostedSession) begin(t *testing.T, req transport.BeginTask) string {
	t.Helper()
	res, err := h.call(&req)
	if err != nil {
		t.Fatalf("beginTask: %v", err)
	}
	return res.(*transport.BeginTaskResult).Task
}

// settled waits (within a task's budget) for the task's settled event and returns every
// event before it.
func (h *hostedSession) settled(t *testing.T) []transport.TaskEvent {
	t.Helper()
	var got []transport.TaskEvent
	limit := time.After(budgets.Task().Ceiling + budgets.ClientMargin)
	for {
		select {
		case e := <-h.events:
			got = append(got, e)
			if e.Kind == transport.EventSettled {
				return got
			}
		case <-limit:
			t.Fatalf("no settled event within the task budget; events so far %+v", got)
		}
	}
}

func (h *hostedSession) finish(t *testing.T, id string) *transport.FinishTaskResult {
	t.Helper()
	res, err := h.call(&transport.FinishTask{Task: id})
	if err != nil {
		t.Fatalf("finishTask: %v", err)
	}
	return res.(*transport.FinishTaskResult)
}

// within waits for ch within a task's budget (every wait of these tests is one task's).
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(budgets.Task().Ceiling + budgets.ClientMargin):
		t.Fatalf("no %s within the task budget", what)
	}
}

func codeOf(err error) transport.Code { return transport.AsOperationError("", err).Code }

// TestHostedTaskEventsThenFinish: begin answers at once; while a model call is held in
// flight finishTask is task_busy naming it and another request is refused (the task owns
// the session); the events are the turns and actions, content-free, then settled; the
// sealed accounting has every receipt.
func TestHostedTaskEventsThenFinish(t *testing.T) {
	h := openHosted(t)
	user, signIn := refFor(t, h.rt, "textbox", "Username"), refFor(t, h.rt, "button", "Sign in")
	hold := modeltest.NewHold()
	h.srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, Hold: hold},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": signIn}},
	)
	id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice")})
	within(t, hold.Arrived(), "the model call")
	_, err := h.call(&transport.FinishTask{Task: id})
	if codeOf(err) != transport.CodeTaskBusy || !strings.Contains(err.Error(), "a model call (turn 1)") {
		t.Errorf("finishTask during a model call: %v, want task_busy naming the model call", err)
	}
	if _, err := h.call(&transport.Observe{}); codeOf(err) != transport.CodeTaskBusy {
		t.Errorf("observe while the task runs: %v, want task_busy", err)
	}
	hold.Release()
	events := h.settled(t)
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e.Kind)
		if e.Task != id {
			t.Errorf("event %+v names another task", e)
		}
	}
	if got := strings.Join(kinds, ","); got != "action,turn,action,turn,settled" {
		t.Errorf("events %s, want action,turn,action,turn,settled (an act turn's receipt follows its action's)", got)
	}
	raw, _ := json.Marshal(events)
	for _, s := range []string{"Welcome", "Username", "alice", "Sign in", taskNoteText} {
		if strings.Contains(string(raw), s) {
			t.Errorf("events hold page or model text %q: %s", s, raw)
		}
	}
	if e := events[len(events)-1]; e.Settlement != transport.SettlementComplete {
		t.Errorf("settled %+v, want complete", e)
	}
	sealed := h.finish(t, id)
	if sealed.Settlement != transport.SettlementComplete || len(sealed.Turns) != 2 || len(sealed.Actions) != 2 || sealed.Result == nil || sealed.Error != nil {
		t.Errorf("sealed %+v: want complete, 2 turns, 2 actions, the result", sealed)
	}
	if a := sealed.Actions[1]; a.Receipt.Name != "Sign in" || a.Outcome != transport.ActionChanged {
		t.Errorf("accounted action %+v: want the click on Sign in, changed", a)
	}
	if _, err := h.call(&transport.FinishTask{Task: id}); codeOf(err) != transport.CodeTaskNotFound {
		t.Errorf("a second finishTask: %v, want task_not_found", err)
	}
	if _, err := h.call(&transport.Observe{}); err != nil {
		t.Errorf("observe after the task finished: %v", err)
	}
	noLeaks(t, h.srv, sealed)
}

// TestHostedTaskCancelDuringModelCall: a cancel while the model call is in flight cancels
// the call; the task never asks the model again (the script has more to answer); the sealed
// accounting lists the call as cancelled, incomplete.
func TestHostedTaskCancelDuringModelCall(t *testing.T) {
	h := openHosted(t)
	user := refFor(t, h.rt, "textbox", "Username")
	hold := modeltest.NewHold()
	h.srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, Hold: hold},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "bob"}},
	)
	id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice")})
	within(t, hold.Arrived(), "the model call")
	res, err := h.call(&transport.CancelTask{Task: id})
	if err != nil || !res.(*transport.CancelTaskResult).Cancelled {
		t.Fatalf("cancelTask: %+v, %v", res, err)
	}
	within(t, hold.Abandoned(), "the model call's cancellation") // the call itself, not left to finish
	events := h.settled(t)
	if e := events[len(events)-1]; e.Settlement != transport.SettlementIncomplete || e.Code != transport.CodeCancelled {
		t.Errorf("settled %+v, want incomplete, cancelled", e)
	}
	sealed := h.finish(t, id)
	if sealed.Settlement != transport.SettlementIncomplete || sealed.Error == nil || sealed.Error.Code != transport.CodeCancelled {
		t.Fatalf("sealed %+v: want incomplete with error cancelled", sealed)
	}
	if len(sealed.Turns) != 1 || sealed.Turns[0].Outcome != string(transport.CodeCancelled) || len(sealed.Actions) != 0 {
		t.Errorf("sealed turns %+v actions %+v: want the one model call, cancelled, and no action", sealed.Turns, sealed.Actions)
	}
	if got := len(h.srv.Requests()); got != 1 {
		t.Errorf("the model was asked %d times, want 1: a cancel is sticky", got)
	}
	if res, _ := h.call(&transport.CancelTask{Task: id}); res != nil {
		t.Errorf("cancel of a finished task answered %+v", res)
	}
}

// TestHostedTaskLeaseExpires: with a lease, a lease left to run out (the test's clock) stops
// the task with task_stale before its next model call; a refresh naming another origin
// stops it likewise; the accounting is kept.
func TestHostedTaskLeaseExpires(t *testing.T) {
	for _, how := range []string{"expired", "origin"} {
		t.Run(how, func(t *testing.T) {
			h := openHosted(t)
			var mu sync.Mutex
			now := time.Unix(1_800_000_000, 0)
			h.rt.SetClockForTest(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
			hold := modeltest.NewHold()
			h.srv.Script(
				modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Username", "action": "type"}, Hold: hold},
				modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Username", "action": "type"}},
			)
			id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice"), LeaseMs: int(budgets.TaskLease.Milliseconds())})
			within(t, hold.Arrived(), "the model call")
			switch how {
			case "expired":
				mu.Lock()
				now = now.Add(budgets.TaskLease + time.Millisecond)
				mu.Unlock()
			case "origin":
				if _, err := h.call(&transport.RefreshTask{Task: id, Facts: transport.TaskFacts{Account: "acct-1", Origin: "https://elsewhere.example"}}); err != nil {
					t.Fatalf("refreshTask: %v", err)
				}
			}
			hold.Release()
			events := h.settled(t)
			if e := events[len(events)-1]; e.Code != transport.CodeTaskStale || e.Settlement != transport.SettlementIncomplete {
				t.Errorf("settled %+v, want incomplete, task_stale", e)
			}
			sealed := h.finish(t, id)
			if sealed.Error == nil || sealed.Error.Code != transport.CodeTaskStale || len(sealed.Turns) != 2 || sealed.Turns[0].Outcome != transport.OutcomeOK {
				t.Errorf("sealed %+v: want task_stale after the first turn's receipt", sealed)
			}
			if got := len(h.srv.Requests()); got != 1 {
				t.Errorf("the model was asked %d times, want 1: a stale task asks nothing more", got)
			}
		})
	}
}

// TestBeginTaskRefusals: a bad request is refused with its path, before anything runs.
func TestBeginTaskRefusals(t *testing.T) {
	for _, tc := range []struct {
		req  transport.BeginTask
		path string
	}{
		{transport.BeginTask{Task: taskOf("x"), LeaseMs: 30001}, "request.leaseMs"},
		{transport.BeginTask{Task: transport.Task{Goal: ""}}, "request.goal"},
	} {
		err := transport.Validate(&tc.req)
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Path != tc.path || oe.Operation != transport.OpBeginTask {
			t.Errorf("%+v: %v, want invalid at %s", tc.req, err, tc.path)
		}
	}
}

// TestHostedTaskRefreshes: a refresh renews the lease (a task past its first lease but
// refreshed with true facts completes), and an account label that changes between
// refreshes stops it with task_stale.
func TestHostedTaskRefreshes(t *testing.T) {
	for _, how := range []string{"renewed", "account", "origin", "document", "regressing", "replayed", "future", "oldSample"} {
		t.Run(how, func(t *testing.T) {
			h := openHosted(t)
			var mu sync.Mutex
			now := time.Unix(1_800_000_000, 0)
			h.rt.SetClockForTest(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
			user, signIn := refFor(t, h.rt, "textbox", "Username"), refFor(t, h.rt, "button", "Sign in")
			page, err := transport.Dispatch(bg, h.rt, transport.Observe{})
			if err != nil {
				t.Fatal(err)
			}
			hold := modeltest.NewHold()
			h.srv.Script(
				modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, Hold: hold},
				modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": signIn}},
			)
			id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice"), LeaseMs: int(budgets.TaskLease.Milliseconds())})
			facts := transport.TaskFacts{Account: "acct-1", Origin: originOf(t, page.URL), Document: page.DocumentID, SampledAtMs: now.UnixMilli()}
			if _, err := h.call(&transport.RefreshTask{Task: id, Facts: facts}); err != nil {
				t.Fatal(err)
			}
			within(t, hold.Arrived(), "the model call")
			mu.Lock()
			now = now.Add(budgets.TaskLease + time.Second) // the first lease is over
			mu.Unlock()
			first := facts.SampledAtMs
			facts.SampledAtMs = now.UnixMilli() // a fresh sample, taken now
			switch how {
			case "account":
				facts.Account = "acct-2"
			case "origin": // the host knows the page must be elsewhere
				facts.Origin = "http://127.0.0.1:1"
			case "document": // the host expects another document than the page shows
				facts.Document = "doc-0000000000000000"
			case "regressing":
				facts.SampledAtMs = first - 1
			case "replayed":
				facts.SampledAtMs = first
			case "future":
				facts.SampledAtMs = now.Add(budgets.TaskSampleSkew + time.Second).UnixMilli()
			case "oldSample":
				facts.SampledAtMs = now.Add(-budgets.TaskLease - 500*time.Millisecond).UnixMilli() // newer than the first, older than a lease
			}
			res, err := h.call(&transport.RefreshTask{Task: id, Facts: facts})
			if err != nil || res.(*transport.RefreshTaskResult).LeaseMs != budgets.TaskLease.Milliseconds() {
				t.Fatalf("refreshTask: %+v, %v", res, err)
			}
			hold.Release()
			h.settled(t)
			sealed := h.finish(t, id)
			switch how {
			case "renewed":
				if sealed.Settlement != transport.SettlementComplete || len(h.srv.Requests()) != 2 {
					t.Errorf("sealed %+v after %d model calls: want complete after 2", sealed, len(h.srv.Requests()))
				}
			default: // a changed account, a fact the page does not match, or a sample that cannot be trusted
				why := map[string]string{"account": "account label changed", "origin": "not on the origin", "document": "not the document", "regressing": "not newer", "replayed": "not newer", "future": "from the future", "oldSample": "older than the lease"}[how]
				if sealed.Error != nil && !strings.Contains(sealed.Error.Message, why) {
					t.Errorf("task_stale says %q, want it to say %q", sealed.Error.Message, why)
				}
				if sealed.Error == nil || sealed.Error.Code != transport.CodeTaskStale || len(sealed.Actions) != 0 || len(h.srv.Requests()) != 1 {
					t.Errorf("sealed %+v after %d model calls: want task_stale before the first action", sealed, len(h.srv.Requests()))
				}
			}
		})
	}
}

func originOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}
