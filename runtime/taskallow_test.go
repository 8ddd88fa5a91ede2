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

// actTool is the act tool's parameters as the model was offered them in its first request
// (the chat-completions body).
func actTool(t *testing.T, srv *modeltest.Server) string {
	t.Helper()
	var body struct {
		Tools []struct {
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	for _, tool := range body.Tools {
		if tool.Function.Name == "act" {
			return string(tool.Function.Parameters)
		}
	}
	t.Fatal("the model was offered no act tool")
	return ""
}

// TestTaskNavigationNeedsTheHost: act navigate is refused before dispatch (task_refused,
// not_attempted) unless the task's host enables navigation, and the model is not offered it;
// enabled, it is dispatched, verified and accounted.
func TestTaskNavigationNeedsTheHost(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		t.Run(map[bool]string{false: "refused", true: "allowed"}[allowed], func(t *testing.T) {
			site, _ := taskSite(t)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "navigate", "url": "/pricing"}})
			q := transport.Task{Goal: "See the pricing", Postcondition: &transport.Postcondition{Kind: transport.PostURL, Value: site.URL + "/pricing"}}
			if allowed {
				q.Allow = &transport.TaskAllow{Navigation: true}
			}
			res, err := transport.Dispatch(bg, rt, q)
			tool := actTool(t, srv)
			if !allowed {
				var oe *transport.OperationError
				if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused || oe.MutationState != transport.NotAttempted || !strings.Contains(oe.Message, "allow.navigation") {
					t.Fatalf("err %v, want task_refused not_attempted naming allow.navigation", err)
				}
				if len(oe.Actions) != 0 {
					t.Errorf("the error lists actions %+v; nothing was dispatched", oe.Actions)
				}
				if as, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertURL, Value: site.URL + "/", Wait: transport.WaitNone}); err != nil {
					t.Errorf("the page moved: %v %+v", err, as)
				}
				if strings.Contains(tool, "navigate") || strings.Contains(tool, `"url"`) {
					t.Errorf("the model was offered navigate: %s", tool)
				}
				return
			}
			if err != nil {
				t.Fatalf("task: %v", err)
			}
			if len(res.Actions) != 1 || res.Actions[0].Receipt.Action != "navigate" || res.Actions[0].URL != site.URL+"/pricing" ||
				res.Actions[0].Outcome != transport.ActionChanged || !res.Actions[0].Diff.DocumentChange {
				t.Errorf("actions %+v, want one changed navigate to /pricing", res.Actions)
			}
			if !strings.Contains(tool, `"navigate"`) {
				t.Errorf("the model was not offered navigate: %s", tool)
			}
		})
	}
}

// TestTaskDialogNeedsTheHost: an act that would accept the dialogs it opens is refused
// before dispatch unless the host enables dialogs; enabled, the confirm is accepted.
func TestTaskDialogNeedsTheHost(t *testing.T) {
	for _, allowed := range []bool{false, true} {
		t.Run(map[bool]string{false: "refused", true: "allowed"}[allowed], func(t *testing.T) {
			site := runtimetest.Fixture()
			t.Cleanup(site.Close)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openFixtureTask(t, site.URL, "/dialogs", &cfg)
			srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": refFor(t, rt, "button", "Confirm"), "dialog": "accept"}})
			q := transport.Task{Goal: "Confirm", Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "confirm returned true"}}
			if allowed {
				q.Allow = &transport.TaskAllow{Dialogs: true}
			}
			res, err := transport.Dispatch(bg, rt, q)
			tool := actTool(t, srv)
			if !allowed {
				var oe *transport.OperationError
				if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused || oe.MutationState != transport.NotAttempted || !strings.Contains(oe.Message, "allow.dialogs") {
					t.Fatalf("err %v, want task_refused not_attempted naming allow.dialogs", err)
				}
				if rd, err := transport.Dispatch(bg, rt, transport.Read{}); err != nil || !strings.Contains(rd.Text, "Answer: none") {
					t.Errorf("the click reached the page (%v)", err)
				}
				if strings.Contains(tool, "dialog") {
					t.Errorf("the model was offered dialog: %s", tool)
				}
				return
			}
			if err != nil {
				t.Fatalf("task: %v", err)
			}
			if len(res.Dialogs) != 1 || res.Dialogs[0].Type != "confirm" || res.Dialogs[0].Action != transport.DialogAccepted {
				t.Errorf("dialogs %+v, want the confirm accepted", res.Dialogs)
			}
		})
	}
}

// TestTaskNoActionAfterARefusal: a refusal ends the task there; the act the model proposes
// next is never dispatched (nor is the model asked for it).
func TestTaskNoActionAfterARefusal(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	user, signIn := refFor(t, rt, "textbox", "Username"), refFor(t, rt, "button", "Sign in")
	srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "bob"}},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "navigate", "url": "/"}}, // not enabled: refused
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": signIn}},
	)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as bob"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused {
		t.Fatalf("err %v, want task_refused", err)
	}
	if got := len(srv.Requests()); got != 2 {
		t.Errorf("the model was asked %d times, want 2", got)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rd.Text, "User is bob") || strings.Contains(rd.Text, "Welcome") {
		t.Errorf("want the type and nothing after the refusal:\n%s", rd.Text)
	}
	if len(oe.Actions) != 1 || oe.Actions[0].Receipt.Action != "type" || oe.Turns[1].Outcome != string(transport.CodeTaskRefused) {
		t.Errorf("actions %+v turns %+v: want the one type, and turn 2 refused", oe.Actions, oe.Turns)
	}
}
