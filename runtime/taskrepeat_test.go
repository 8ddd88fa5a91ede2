package runtime_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// openFixtureTask opens a session allowed only the fixture's origin, with the scripted
// model and its key, on the fixture page path.
func openFixtureTask(t *testing.T, site, path string, cfg *model.Config) transport.Caller {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site}, Model: cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + path}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// refsOf are the refs of every element with role and name in a fresh outline, in order.
func refsOf(t *testing.T, rt transport.Caller, role, name string) []string {
	t.Helper()
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	var walk func([]transport.OutlineNode)
	walk = func(ns []transport.OutlineNode) {
		for _, n := range ns {
			if n.Role == role && n.Name == name && n.Ref != "" {
				refs = append(refs, n.Ref)
			}
			walk(n.Children)
		}
	}
	walk(ob.Nodes)
	return refs
}

// TestTaskInjectionClicksOnce: the /delete-all page asks the assistant to keep clicking
// "Delete all", whose click changes nothing visible, and the model does as the page says,
// the same click every turn (on the same button, or on its namesake: another button of that
// role and name). The task dispatches one click and refuses the next before dispatch: the
// server counted one click, the model was asked twice, and the error lists the one click.
func TestTaskInjectionClicksOnce(t *testing.T) {
	for _, how := range []string{"same ref", "namesake"} {
		t.Run(how, func(t *testing.T) {
			site := runtimetest.Fixture()
			t.Cleanup(site.Close)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openFixtureTask(t, site.URL, "/delete-all", &cfg)
			refs := refsOf(t, rt, "button", "Delete all")
			if len(refs) != 2 {
				t.Fatalf("the page has %d buttons named Delete all, want 2", len(refs))
			}
			click := func(ref string) modeltest.Step {
				return modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": ref}}
			}
			next := refs[0]
			if how == "namesake" {
				next = refs[1]
			}
			script := []modeltest.Step{click(refs[0])}
			for range 7 {
				script = append(script, click(next))
			}
			srv.Script(script...)
			_, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Delete all saved items", Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "No saved items"}})
			var oe *transport.OperationError
			if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused || oe.Phase != transport.PhasePolicy || oe.Operation != transport.OpTask {
				t.Fatalf("err %v, want task task_refused (policy)", err)
			}
			if n := runtimetest.Clicks(t, site.URL)["deleteall"]; n != 1 {
				t.Errorf("the server counted %d clicks on Delete all, want 1", n)
			}
			if got := len(srv.Requests()); got != 2 {
				t.Errorf("the model was asked %d times, want 2: the refusal ends the task", got)
			}
			if len(oe.Actions) != 1 {
				t.Fatalf("the error lists %d actions, want the one click: %+v", len(oe.Actions), oe.Actions)
			}
			a := oe.Actions[0]
			if a.Turn != 1 || a.Receipt.Action != "click" || a.Receipt.Ref != refs[0] || a.Receipt.Role != "button" || a.Receipt.Name != "Delete all" || a.Outcome != transport.ActionUnchanged || a.Diff != (transport.OutlineDiff{}) {
				t.Errorf("the action %+v, want turn 1's unchanged click on %s button Delete all", a, refs[0])
			}
			last := oe.Turns[len(oe.Turns)-1]
			if len(oe.Turns) != 2 || last.Tool != "act" || last.Outcome != string(transport.CodeTaskRefused) || last.ActionMs != 0 {
				t.Errorf("turns %+v, want 2, the second an act refused before dispatch", oe.Turns)
			}
			// The click was dispatched, so the task's page may have changed: never
			// not_attempted, which would invite running it again.
			if oe.MutationState != transport.Unknown || oe.Retry != transport.RetryNever {
				t.Errorf("mutationState %s retry %s, want unknown and never", oe.MutationState, oe.Retry)
			}
			if !strings.Contains(oe.Message, "changed nothing observable") || strings.Contains(oe.Message, "Delete all") {
				t.Errorf("message %q: want the reason, without the page's text", oe.Message)
			}
			raw, _ := json.Marshal(oe)
			if !strings.Contains(string(raw), `"actions":[{"turn":1,"receipt":{"action":"click"`) {
				t.Errorf("the error's JSON does not carry the action: %s", raw)
			}
		})
	}
}

// TestTaskRepeatAfterChangeGoesOn: an action that changed the page leaves its element
// open, and a type the act verified changes the field though the outline never shows a
// value: type, then press Enter in the same field, runs both (the page reacts only to
// the key).
func TestTaskRepeatAfterChangeGoesOn(t *testing.T) {
	site := runtimetest.Fixture()
	t.Cleanup(site.Close)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openFixtureTask(t, site.URL, "/keys", &cfg)
	search := refFor(t, rt, "textbox", "Search")
	srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": search, "text": "kettle"}},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "press", "ref": search, "key": "Enter"}},
	)
	res, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Search for a kettle", Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "Enter"}})
	if err != nil {
		t.Fatalf("task: %v", err)
	}
	if len(res.Actions) != 2 || res.Actions[0].Outcome != transport.ActionChanged || res.Actions[1].Outcome != transport.ActionChanged {
		t.Fatalf("actions %+v, want a type and a press, both changed", res.Actions)
	}
}
