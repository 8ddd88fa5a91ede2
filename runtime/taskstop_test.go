package runtime_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Stops that do not revoke the session (seed 001: human takeover, navigation): each stops a
// hosted task as a cancel does — no further model call or action, settlement incomplete, a
// typed reason — and the session answers its host afterwards.

// stoppedTask checks a stopped task's end: one model request (held, then cancelled or
// answered), no action, incomplete with code and reason; the session still answers.
func stoppedTask(t *testing.T, h *hostedSession, id string, code transport.Code, by string) {
	t.Helper()
	events := h.settled(t)
	if e := events[len(events)-1]; e.Code != code || e.StoppedBy != by || e.Settlement != transport.SettlementIncomplete {
		t.Errorf("settled %+v, want incomplete, %s, stopped by %s", e, code, by)
	}
	sealed := h.finish(t, id)
	if sealed.Error == nil || sealed.Error.Code != code || sealed.StoppedBy != by || len(sealed.Actions) != 0 {
		t.Errorf("sealed %+v: want %s stopped by %s, no action", sealed, code, by)
	}
	if got := len(h.srv.Requests()); got != 1 {
		t.Errorf("the model was asked %d times, want 1", got)
	}
	if _, err := h.call(&transport.Observe{}); err != nil {
		t.Errorf("the session after the stop: %v, want it still its host's", err)
	}
}

// TestHostedTaskStopsWhenAPersonAttaches: a session with a browser of its own; a person
// attaching through its endpoint during the model call cancels the call, and nothing more
// is dispatched.
func TestHostedTaskStopsWhenAPersonAttaches(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := runtimetest.OpenWith(t, runtimetest.Options{AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	h := &hostedSession{rt: rt, srv: srv, events: make(chan transport.TaskEvent, 64)}
	user := refFor(t, rt, "textbox", "Username")
	hold := modeltest.NewHold()
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, Hold: hold})
	id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice")})
	within(t, hold.Arrived(), "the model call")
	ctx, cancel := context.WithTimeout(bg, budgets.GateAttach)
	defer cancel()
	res, err := transport.Dispatch(bg, rt, transport.AttachEndpoint{})
	if err != nil {
		t.Fatalf("attachEndpoint while the task runs: %v", err)
	}
	person, _, err := websocket.DefaultDialer.DialContext(ctx, res.URL, nil)
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	defer person.Close()
	within(t, hold.Abandoned(), "the model call in flight cancelled by the attach")
	stoppedTask(t, h, id, transport.CodeCancelled, transport.StopPerson)
}

// TestAttachEndpointOnlyOfItsOwnBrowser: a session attached to a browser it does not own
// has no attach endpoint to hand out (its parent reached that browser itself).
func TestAttachEndpointOnlyOfItsOwnBrowser(t *testing.T) {
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL()})
	_, err = transport.Dispatch(bg, rt, transport.AttachEndpoint{})
	if oe := transport.AsOperationError("", err); err == nil || oe.Code != transport.CodeInvalidRequest || !strings.Contains(oe.Message, "no attach endpoint") {
		t.Errorf("attachEndpoint of an attached session: %v, want invalid_request saying it has none", err)
	}
}

// TestHostedTaskStopsOnAHandoffPage: a session whose handoff classes include login stops a
// task on a sign-in page before its first model call completes anything.
func TestHostedTaskStopsOnAHandoffPage(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Sign in</title><label>Username <input></label><label>Password <input type=password></label><button>Sign in</button>`)
	}))
	defer site.Close()
	h := openHostedAt(t, site.URL, []string{transport.PageLogin}, modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Username", "action": "type"}})
	srv := h.srv
	id := h.begin(t, transport.BeginTask{Task: taskOf("Sign in as alice")})
	events := h.settled(t)
	if e := events[len(events)-1]; e.Code != transport.CodeHandoffRequired || e.StoppedBy != transport.StopHandoff {
		t.Errorf("settled %+v, want handoff_required, stopped by handoff", e)
	}
	sealed := h.finish(t, id)
	if sealed.Settlement != transport.SettlementIncomplete || len(srv.Requests()) != 0 {
		t.Errorf("sealed %+v after %d model requests: want incomplete before any", sealed, len(srv.Requests()))
	}
}

// TestHostedTaskStopsOnANavigationItDidNotMake: while the model is asked, the page goes to
// another document on its own; the action the model then proposes is not dispatched.
func TestHostedTaskStopsOnANavigationItDidNotMake(t *testing.T) {
	goOn, arrived := make(chan struct{}), make(chan struct{})
	var once, arrivedOnce sync.Once
	release := func() { once.Do(func() { close(goOn) }) }
	t.Cleanup(release)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/go": // answered when the test says: the page then leaves by itself
			select {
			case <-goOn:
			case <-r.Context().Done():
			}
		case "/moved":
			fmt.Fprint(w, `<!doctype html><title>Moved</title><p>Moved<script>fetch('/arrived')</script>`)
		case "/arrived":
			arrivedOnce.Do(func() { close(arrived) })
		default:
			fmt.Fprint(w, `<!doctype html><title>Form</title><label>Username <input></label><script>fetch('/go').then(() => { location.href = '/moved' })</script>`)
		}
	}))
	defer site.Close()
	h := openHostedAt(t, site.URL, nil)
	rt, srv := h.rt, h.srv
	user := refFor(t, rt, "textbox", "Username")
	hold := modeltest.NewHold()
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, Hold: hold})
	id := h.begin(t, transport.BeginTask{Task: transport.Task{Goal: "Type alice", Postcondition: &transport.Postcondition{Kind: transport.PostTitle, Value: "Done"}}})
	within(t, hold.Arrived(), "the model call")
	release()
	within(t, arrived, "the page's move to a new document, on its own")
	hold.Release()
	stoppedTask(t, h, id, transport.CodeCancelled, transport.StopNavigation)
}
