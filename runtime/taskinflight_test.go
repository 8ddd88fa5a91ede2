package runtime_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// A hosted task stopped while an ACTION is in flight (seed 001 items 1 and 3): the action is
// a click on a link whose navigation goes to a handler the test holds open, and an act waits
// for the navigation it started to commit and load (worker/actnav.go), so the click stays
// dispatched until the test lets the page answer.

// inFlightSite serves a start page with a link to /next, whose answer waits for release (or
// for its client to give up); the next page says after (the postcondition holds or not).
// arrived is closed when the link's navigation reached /next: the action is then in flight.
func inFlightSite(t *testing.T, after string) (site *httptest.Server, arrived <-chan struct{}, release func()) {
	goOn, hit := make(chan struct{}), make(chan struct{})
	var releaseOnce, hitOnce sync.Once
	release = func() { releaseOnce.Do(func() { close(goOn) }) }
	t.Cleanup(release)
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/next":
			hitOnce.Do(func() { close(hit) })
			select {
			case <-goOn:
			case <-r.Context().Done():
				return
			}
			fmt.Fprintf(w, `<!doctype html><title>Next</title><p>%s</p>`, after)
		case "/":
			fmt.Fprint(w, `<!doctype html><title>Start</title><h1>Start</h1><a href="/next">Continue</a>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	return site, hit, release
}

// TestTaskInFlightActionCancelled: while the click is in flight finishTask is refused
// task_busy naming the action (by kind, role and ref: no page text), and cancelTask stops the
// task; released, the click is accounted with its real outcome (changed: a new document),
// the task settles incomplete, stopped by the host, cancelled — whether or not the click
// made the postcondition hold — and the model is never asked again although its script has
// more to answer.
func TestTaskInFlightActionCancelled(t *testing.T) {
	for _, tc := range []struct {
		name, after string
		turns       int // the click's turn, and a refused turn when the postcondition did not hold
	}{
		{"goesOn", "Step two", 2},
		{"holds", "Welcome, alice", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site, arrived, release := inFlightSite(t, tc.after)
			h := openHostedAt(t, site.URL, nil)
			rt, srv := h.rt, h.srv
			link := refFor(t, rt, "link", "Continue")
			srv.Script(
				modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": link}},
				modeltest.Step{Tool: "done"}, // asked for only if a cancel were not sticky
			)
			id := h.begin(t, transport.BeginTask{Task: taskOf("Continue and sign in as alice")})
			within(t, arrived, "the click's navigation reaching the held page")

			_, err := h.call(&transport.FinishTask{Task: id})
			oe := transport.AsOperationError("", err)
			if want := "act click on link " + link + " (turn 1)"; oe.Code != transport.CodeTaskBusy || oe.Retry != transport.RetryNever || !strings.Contains(oe.Message, want) {
				t.Errorf("finishTask with the click in flight: %v (retry %q), want task_busy, never retried, naming %q", err, oe.Retry, want)
			}
			if strings.Contains(oe.Message, "Continue") {
				t.Errorf("finishTask's refusal holds the page's text: %s", oe.Message)
			}
			res, err := h.call(&transport.CancelTask{Task: id})
			if err != nil || !res.(*transport.CancelTaskResult).Cancelled {
				t.Fatalf("cancelTask with the click in flight: %+v, %v, want cancelled", res, err)
			}
			release()

			events := h.settled(t)
			var acted []transport.TaskAction
			for _, e := range events {
				if e.Kind == transport.EventAction {
					acted = append(acted, *e.Action)
				}
			}
			if len(acted) != 1 || acted[0].Receipt.Action != transport.ActClick || acted[0].Receipt.Ref != link || acted[0].Outcome != transport.ActionChanged {
				t.Errorf("action events %+v: want the one click on %s, changed", acted, link)
			}
			if e := events[len(events)-1]; e.Settlement != transport.SettlementIncomplete || e.StoppedBy != transport.StopHost || e.Code != transport.CodeCancelled {
				t.Errorf("settled %+v, want incomplete, stopped by host, cancelled", e)
			}
			if res, err := h.call(&transport.CancelTask{Task: id}); err != nil || res.(*transport.CancelTaskResult).Cancelled {
				t.Errorf("a second cancelTask: %+v, %v, want cancelled false", res, err)
			}

			sealed := h.finish(t, id)
			if sealed.Settlement != transport.SettlementIncomplete || sealed.StoppedBy != transport.StopHost || sealed.Result != nil ||
				sealed.Error == nil || sealed.Error.Code != transport.CodeCancelled || sealed.Error.MutationState != transport.Unknown {
				t.Fatalf("sealed %+v: want incomplete, stopped by host, no result, cancelled with the page's state unknown", sealed)
			}
			if len(sealed.Actions) != 1 {
				t.Fatalf("sealed actions %+v: want the one click", sealed.Actions)
			}
			if a := sealed.Actions[0]; a.Turn != 1 || a.Receipt.Action != transport.ActClick || a.Receipt.Name != "Continue" || a.Outcome != transport.ActionChanged {
				t.Errorf("accounted action %+v: want turn 1's click on Continue, changed (its real outcome)", a)
			}
			if len(sealed.Turns) != tc.turns || sealed.Turns[0].Outcome != transport.OutcomeOK {
				t.Fatalf("sealed turns %+v: want %d, the click's ok", sealed.Turns, tc.turns)
			}
			if tc.turns == 2 && sealed.Turns[1].Outcome != string(transport.CodeCancelled) {
				t.Errorf("turn 2 %+v: want refused at admission, cancelled", sealed.Turns[1])
			}
			if got := len(srv.Requests()); got != 1 {
				t.Errorf("the model was asked %d times, want 1: nothing is admitted after a cancel", got)
			}
			if ob, err := h.call(&transport.Observe{}); err != nil || ob.(*transport.ObserveResult).Title != "Next" {
				t.Errorf("the session after the task: %+v, %v, want it its host's, on the page the click reached", ob, err)
			}
		})
	}
}
