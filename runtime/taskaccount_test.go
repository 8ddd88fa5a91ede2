package runtime_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// typedLiteral is what the model types; the page shows only its first word ("User is zed"
// … "Welcome, zed"), so the rest can only reach an output through the accounting.
const typedLiteral = "zed Typed-Lit3ral-91"

// TestTaskAccountingWithoutTypedText: a task's result, successful or not, lists every
// action it dispatched (turn, action, ref, role, name, outcome, diff) and never the text a
// type typed, nor the secret the model tried to type; in this process the result still has
// the typed text, for an act in words' export.
func TestTaskAccountingWithoutTypedText(t *testing.T) {
	for _, ends := range []string{"success", "failure"} {
		t.Run(ends, func(t *testing.T) {
			site, _ := taskSite(t)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			user, signIn := refFor(t, rt, "textbox", "Username"), refFor(t, rt, "button", "Sign in")
			second := modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": signIn}}
			if ends == "failure" {
				second = modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": taskNoteText}}
			}
			srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": typedLiteral}}, second)
			q := transport.Task{Goal: "Sign in as zed", Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "Welcome, zed"}}
			res, err := transport.Dispatch(bg, rt, q)
			var actions []transport.TaskAction
			var out any
			if ends == "success" {
				if err != nil {
					t.Fatalf("task: %v", err)
				}
				actions, out = res.Actions, res
				if len(actions) != 2 || actions[0].Text != typedLiteral {
					t.Fatalf("actions %+v: want two, the type's text kept in process", actions)
				}
			} else {
				var oe *transport.OperationError
				if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused {
					t.Fatalf("err %v, want task_refused (a secret typed)", err)
				}
				actions, out = oe.Actions, oe
				if len(actions) != 1 {
					t.Fatalf("the error lists %+v, want the one type dispatched", actions)
				}
			}
			want := transport.TaskAction{Turn: 1, Receipt: transport.Receipt{Action: "type", Ref: user, Role: "textbox", Name: "Username"}, Outcome: transport.ActionChanged}
			if a := actions[0]; a.Turn != want.Turn || a.Receipt.Action != want.Receipt.Action || a.Receipt.Ref != user || a.Receipt.Role != "textbox" || a.Receipt.Name != "Username" || a.Outcome != want.Outcome || a.Diff.Added == 0 {
				t.Errorf("first action %+v, want %+v with lines added", a, want)
			}
			if ends == "success" {
				if a := actions[1]; a.Turn != 2 || a.Receipt.Action != "click" || a.Receipt.Name != "Sign in" || a.Outcome != transport.ActionChanged {
					t.Errorf("second action %+v, want turn 2's changed click on Sign in", a)
				}
			}
			raw, _ := json.Marshal(out)
			if !strings.Contains(string(raw), `"actions":[{"turn":1,"receipt":{"action":"type"`) {
				t.Errorf("the output does not carry the accounting: %s", raw)
			}
			for _, s := range []string{"Typed-Lit3ral", `"text":`} {
				if strings.Contains(string(raw), s) {
					t.Errorf("the output holds %q: %s", s, raw)
				}
			}
			noLeaks(t, srv, out)
		})
	}
}
