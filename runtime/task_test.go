package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// The task tests run the semantic loop against real Chromium and a scripted model server
// (modeltest) speaking each provider's wire format; the script is the model's side, the page
// and every decision are real.

const (
	taskAPIKey   = "sk-test-Zq8v1LrT0pX4"
	taskAPIEnv   = "FASTBROWSER_TEST_MODEL_KEY"
	taskNoteEnv  = "FASTBROWSER_TEST_NOTE"
	taskNoteText = "n0te-S3cret-Value-77"
)

// signInPage is a sign-in form whose button greets the user by the typed name, a note field
// whose value the page echoes as visible text (so a secret typed there is on the page), and
// a link to another origin.
func signInPage(partner string) string {
	return `<!doctype html><title>Sign in</title>
<h1>Sign in</h1>
<label>Username <input id=u type=text oninput="document.getElementById('who').textContent='User is '+this.value"></label>
<p id=who></p>
<label>Note <input id=n type=text oninput="document.getElementById('echo').textContent='Note says '+this.value"></label>
<p id=echo></p>
<button onclick="document.getElementById('out').textContent='Welcome, '+document.getElementById('u').value">Sign in</button>
<p id=out></p>
<a href="` + partner + `/offers">Partner offers</a>`
}

// taskSite serves the sign-in page and returns it with an origin that counts every request
// made to it (the "partner").
func taskSite(t *testing.T) (site *httptest.Server, partner *runtimetest.Canary) {
	partner = runtimetest.NewCanary()
	site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, signInPage(partner.URL))
	}))
	if t != nil {
		t.Cleanup(partner.Close)
		t.Cleanup(site.Close)
	}
	return site, partner
}

// openTaskSession opens a session allowed only the site's origin, with the scripted model,
// its key in the session's environment, and the site loaded; the note field holds a secret
// typed from the environment, which the page shows.
func openTaskSession(t *testing.T, site string, cfg *model.Config) transport.Caller {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{taskAPIEnv: taskAPIKey, taskNoteEnv: taskNoteText}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site}, Model: cfg,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site + "/"}); err != nil {
		t.Fatal(err)
	}
	note := refFor(t, rt, "textbox", "Note")
	if _, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActType, Target: transport.Target{Ref: note}, Text: transport.FromEnv(taskNoteEnv)}); err != nil {
		t.Fatal(err)
	}
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ob.Text, "Note says [secret]") {
		t.Fatalf("the page does not show the typed secret (masked) for the test to mean anything:\n%s", ob.Text)
	}
	return rt
}

// refFor is the ref of the element with role and name in a fresh outline.
func refFor(t testing.TB, rt transport.Caller, role, name string) string {
	t.Helper()
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	var find func([]transport.OutlineNode) string
	find = func(ns []transport.OutlineNode) string {
		for _, n := range ns {
			if n.Role == role && n.Name == name && n.Ref != "" {
				return n.Ref
			}
			if r := find(n.Children); r != "" {
				return r
			}
		}
		return ""
	}
	ref := find(ob.Nodes)
	if ref == "" {
		t.Fatalf("no %s %q in\n%s", role, name, ob.Text)
	}
	return ref
}

// noLeaks: neither the API key nor the typed secret reached a model request body or the
// task's own output.
func noLeaks(t *testing.T, srv *modeltest.Server, outputs ...any) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model server saw no request")
	}
	for i, r := range reqs {
		for _, s := range []string{taskAPIKey, taskNoteText} {
			if strings.Contains(string(r.Body), s) {
				t.Errorf("model request %d's body holds %q", i+1, s)
			}
		}
		if !strings.Contains(fmt.Sprint(r.Header), taskAPIKey) {
			t.Errorf("model request %d carries no API key in its headers", i+1)
		}
	}
	for _, o := range outputs {
		raw, _ := json.Marshal(o)
		for _, s := range []string{taskAPIKey, taskNoteText} {
			if strings.Contains(string(raw), s) {
				t.Errorf("task output holds %q: %s", s, raw)
			}
		}
	}
}

func taskOf(goal string) transport.Task {
	return transport.Task{Goal: goal, Postcondition: &transport.Postcondition{Kind: transport.PostText, Value: "Welcome, alice"}}
}

// TestTaskThreeTurnsSucceeds: locate, type, click — three turns, the postcondition read from
// the page after the click ends the task; for each wire format.
func TestTaskThreeTurnsSucceeds(t *testing.T) {
	for _, provider := range []string{model.ProviderOpenAI, model.ProviderAnthropic} {
		t.Run(provider, func(t *testing.T) {
			site, _ := taskSite(t)
			// The refs are the page's own: read them from a throwaway session's outline.
			srv := modeltest.Start(t)
			cfg := srv.Config(provider, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			user, signIn := refFor(t, rt, "textbox", "Username"), refFor(t, rt, "button", "Sign in")
			srv.Script(
				modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Username", "action": "type"}, InputTokens: 500, OutputTokens: 20},
				modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}, InputTokens: 600, OutputTokens: 25},
				// A ref copied with the outline's brackets ("[e7]") is read without them.
				modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "[" + signIn + "]"}, InputTokens: 700, OutputTokens: 15},
			)
			res, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
			if err != nil {
				t.Fatalf("task: %v", err)
			}
			if len(res.Turns) != 3 || len(res.Actions) != 2 || res.MutationState != transport.Verified {
				t.Fatalf("got %d turns, %d actions, %s; want 3, 2, verified: %+v", len(res.Turns), len(res.Actions), res.MutationState, res)
			}
			for i, want := range []string{"locate", "act", "act"} {
				if rc := res.Turns[i]; rc.Tool != want || rc.Outcome != transport.OutcomeOK || rc.InputTokens != 500+100*i {
					t.Errorf("turn %d receipt %+v, want tool %s, ok, %d input tokens", i+1, rc, want, 500+100*i)
				}
			}
			if a := res.Actions[1]; a.Receipt.Role != "button" || a.Receipt.Name != "Sign in" || a.Receipt.Action != "click" || a.Diff.Added == 0 {
				t.Errorf("second action %+v: want a click on button Sign in that added outline lines", a)
			}
			if got := len(srv.Requests()); got != 3 {
				t.Errorf("the model was called %d times, want 3", got)
			}
			// Receipts are content-free: no page text in them.
			turns, _ := json.Marshal(res.Turns)
			for _, s := range []string{"Welcome", "Username", "alice", "Sign in"} {
				if strings.Contains(string(turns), s) {
					t.Errorf("turn receipts hold page or model text %q: %s", s, turns)
				}
			}
			noLeaks(t, srv, res)
		})
	}
}

// TestTaskRefusesOffOriginNavigation: a click on a link to another origin, and a navigate
// to one, are refused by the policy before dispatch: nothing reaches the other origin, the
// page stays where it was, and the task ends on that turn.
func TestTaskRefusesOffOriginNavigation(t *testing.T) {
	for _, how := range []string{"link", "navigate"} {
		t.Run(how, func(t *testing.T) {
			site, partner := taskSite(t)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			step := modeltest.Step{Tool: "act", Args: map[string]string{"action": "navigate", "url": partner.URL + "/offers"}}
			if how == "link" {
				step.Args = map[string]string{"action": "click", "ref": refFor(t, rt, "link", "Partner offers")}
			}
			srv.Script(step, modeltest.Step{Tool: "done"})
			q := taskOf("See the partner's offers")
			q.Allow = &transport.TaskAllow{Navigation: true} // refused by the policy, not for want of it
			_, err := transport.Dispatch(bg, rt, q)
			var oe *transport.OperationError
			if !errors.As(err, &oe) || oe.Code != transport.CodeOriginDenied || oe.MutationState != transport.NotAttempted || oe.Operation != transport.OpTask {
				t.Fatalf("err %v, want task origin_denied not_attempted", err)
			}
			if len(oe.Turns) != 1 || oe.Turns[0].Tool != "act" || oe.Turns[0].Outcome != string(transport.CodeOriginDenied) {
				t.Errorf("receipts %+v, want one act turn ending origin_denied", oe.Turns)
			}
			if partner.Hits() != 0 {
				t.Errorf("the other origin saw %d requests: %v", partner.Hits(), partner.Paths())
			}
			if got := len(srv.Requests()); got != 1 {
				t.Errorf("the model was asked %d times; a refusal must end the task", got)
			}
			if as, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertURL, Value: site.URL + "/", Wait: transport.WaitNone}); err != nil {
				t.Errorf("the page moved: %v %+v", err, as)
			}
			noLeaks(t, srv, oe)
		})
	}
}

// TestTaskClaimedSuccessIsChecked: a model that says it is done (by the done tool, or by
// answering text) while the postcondition does not hold ends postcondition_failed; its words
// decide nothing.
func TestTaskClaimedSuccessIsChecked(t *testing.T) {
	for _, how := range []string{"done", "text"} {
		t.Run(how, func(t *testing.T) {
			site, _ := taskSite(t)
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderAnthropic, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			claim := modeltest.Step{Tool: "done"}
			if how == "text" {
				claim = modeltest.Step{Text: "I have signed in as alice; the page says Welcome, alice."}
			}
			srv.Script(claim)
			_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
			var oe *transport.OperationError
			if !errors.As(err, &oe) || oe.Code != transport.CodePostconditionFailed || oe.Operation != transport.OpTask {
				t.Fatalf("err %v, want task postcondition_failed", err)
			}
			if len(oe.Turns) != 1 || oe.Turns[0].Tool != "done" || oe.Turns[0].Outcome != string(transport.CodePostconditionFailed) {
				t.Errorf("receipts %+v, want one done turn ending postcondition_failed", oe.Turns)
			}
			noLeaks(t, srv, oe)
		})
	}
}

// TestTaskNinthTurnRefused: eight turns that do not reach the postcondition; the ninth is
// refused without asking the model.
func TestTaskNinthTurnRefused(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	var script []modeltest.Step
	for range 12 {
		script = append(script, modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": "Sign in", "action": "click"}})
	}
	srv.Script(script...)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeBudgetExceeded {
		t.Fatalf("err %v, want budget_exceeded", err)
	}
	if got := len(srv.Requests()); got != 8 {
		t.Errorf("the model was asked %d times, want 8", got)
	}
	if len(oe.Turns) != 9 || oe.Turns[8].Turn != 9 || oe.Turns[8].Outcome != string(transport.CodeBudgetExceeded) || oe.Turns[7].Outcome != transport.OutcomeOK {
		t.Errorf("receipts %+v: want 8 ok turns and a 9th refused", oe.Turns)
	}
	noLeaks(t, srv, oe)
}

// TestTaskRefusals: what the model proposes that the task does not allow ends it at once,
// before anything is dispatched: an ambiguous locate, a ref it was never shown, a second
// action past maxActions, typing a secret's value.
func TestTaskRefusals(t *testing.T) {
	site, _ := taskSite(t)
	cases := []struct {
		name   string
		task   func(transport.Task) transport.Task
		script []modeltest.Step
		code   transport.Code
	}{
		{"ambiguous", nil, []modeltest.Step{{Tool: "locate", Args: map[string]string{"instruction": "e", "action": "type"}}}, transport.CodeElementAmbiguous},
		{"unknown ref", nil, []modeltest.Step{{Tool: "act", Args: map[string]string{"action": "click", "ref": "e999"}}}, transport.CodeTaskRefused},
		{"unknown tool", nil, []modeltest.Step{{Tool: "shell", Args: map[string]string{"cmd": "ls"}}}, transport.CodeTaskRefused},
		{"upload", nil, []modeltest.Step{{Tool: "act", Args: map[string]string{"action": "upload", "ref": "e1"}}}, transport.CodeTaskRefused},
		{"secret typed", nil, []modeltest.Step{{Tool: "act", Args: map[string]string{"action": "type", "ref": "USER", "text": taskNoteText}}}, transport.CodeTaskRefused},
		{"actions spent", func(q transport.Task) transport.Task { q.MaxActions = 1; return q }, []modeltest.Step{
			{Tool: "act", Args: map[string]string{"action": "type", "ref": "USER", "text": "bob"}},
			{Tool: "act", Args: map[string]string{"action": "type", "ref": "USER", "text": "alice"}}}, transport.CodeBudgetExceeded},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := modeltest.Start(t)
			cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
			rt := openTaskSession(t, site.URL, &cfg)
			user := refFor(t, rt, "textbox", "Username")
			for i := range c.script {
				if args, ok := c.script[i].Args.(map[string]string); ok && args["ref"] == "USER" {
					args["ref"] = user
				}
			}
			srv.Script(c.script...)
			q := taskOf("Sign in as alice")
			if c.task != nil {
				q = c.task(q)
			}
			_, err := transport.Dispatch(bg, rt, q)
			var oe *transport.OperationError
			if !errors.As(err, &oe) || oe.Code != c.code {
				t.Fatalf("err %v, want %s", err, c.code)
			}
			if got := len(srv.Requests()); got != len(c.script) {
				t.Errorf("the model was asked %d times, want %d: a refusal ends the task", got, len(c.script))
			}
			rd, err := transport.Dispatch(bg, rt, transport.Read{})
			if err != nil {
				t.Fatal(err)
			}
			typed, want := strings.Contains(rd.Text, "User is "), c.name == "actions spent"
			if typed != want || (want && !strings.Contains(rd.Text, "User is bob")) {
				t.Errorf("the username field was typed into %v (want only by the one action allowed):\n%s", typed, rd.Text)
			}
			noLeaks(t, srv, oe)
		})
	}
}

// TestTaskWithoutModel: a session with no model refuses task and extract model_required,
// before anything is attempted, and goes on serving everything else.
func TestTaskWithoutModel(t *testing.T) {
	site, _ := taskSite(t)
	rt := runtimetest.Open(t, site.URL)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	for _, op := range []transport.Operation{ptr(taskOf("Sign in")), &transport.Extract{Schema: transport.JSONValue(`{"type":"object"}`)}} {
		_, err := rt.Call(bg, op, nil)
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Code != transport.CodeModelRequired || oe.MutationState != transport.NotAttempted {
			t.Errorf("%s: err %v, want model_required not_attempted", op.OpName(), err)
		}
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "Sign in"}); err != nil {
		t.Errorf("the session is unusable after model_required: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestTaskFailedActionAfterOneDispatched: a task whose first action was dispatched and whose
// second fails before it reaches the page has still changed the page: its error says
// mutationState unknown (retry unsafe), never not_attempted, which would tell the caller the
// task could be run again as if nothing had happened.
func TestTaskFailedActionAfterOneDispatched(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t)
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	user := refFor(t, rt, "textbox", "Username")
	srv.Script(
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "bob"}},
		// Checking a text field is refused by the action itself, before it is dispatched.
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "check", "ref": user}},
	)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Operation != transport.OpTask {
		t.Fatalf("err %v, want the task's failure", err)
	}
	rd, rerr := transport.Dispatch(bg, rt, transport.Read{})
	if rerr != nil || !strings.Contains(rd.Text, "User is bob") {
		t.Fatalf("the first action did not reach the page (%v): the test means nothing", rerr)
	}
	if oe.MutationState != transport.Unknown || oe.Retry != transport.RetryUnsafe {
		t.Errorf("code %s: mutationState %s retry %s after an action was dispatched, want unknown and unsafe", oe.Code, oe.MutationState, oe.Retry)
	}
	noLeaks(t, srv, oe)
}

// TestTaskTwoCallsReceiptContentFree: a reply with two tool calls is refused, and the turn's
// receipt names no tool the task does not offer: a tool's name is the model's text, and a
// receipt never carries model output. (The scripted server answers one call per step; this
// endpoint answers two, in the chat-completions format.)
func TestTaskTwoCallsReceiptContentFree(t *testing.T) {
	const said = "Welcome alice the password is hunter2"
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"message":{"content":null,"tool_calls":[`+
			`{"id":"c1","type":"function","function":{"name":%q,"arguments":"{}"}},`+
			`{"id":"c2","type":"function","function":{"name":"done","arguments":"{}"}}]}}],"usage":{"prompt_tokens":5,"completion_tokens":5}}`, said)
	}))
	t.Cleanup(ep.Close)
	site, _ := taskSite(t)
	cfg := model.Config{Provider: model.ProviderOpenAI, Model: "m", BaseURL: ep.URL, APIKeyEnv: taskAPIEnv}
	rt := openTaskSession(t, site.URL, &cfg)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeTaskRefused || len(oe.Turns) != 1 {
		t.Fatalf("err %v, want task_refused with one turn", err)
	}
	if tool := oe.Turns[0].Tool; tool != "unknown" {
		raw, _ := json.Marshal(oe.Turns)
		t.Errorf("the receipt's tool is %q, want \"unknown\" (a name the task does not offer): %s", tool, raw)
	}
}

// TestTaskLocateFailureRepeatsNoModelText: a locate that finds nothing ends the task
// element_not_found, and the error (in the report, the output and a session's history) says
// so without repeating the model's instruction: what a model wrote is never output.
func TestTaskLocateFailureRepeatsNoModelText(t *testing.T) {
	const said = "the field where alice types her secret answer"
	site, _ := taskSite(t)
	srv := modeltest.Start(t, modeltest.Step{Tool: "locate", Args: map[string]string{"instruction": said, "action": "type"}})
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	rt := openTaskSession(t, site.URL, &cfg)
	_, err := transport.Dispatch(bg, rt, taskOf("Sign in as alice"))
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeElementNotFound || oe.Operation != transport.OpTask {
		t.Fatalf("err %v, want task element_not_found", err)
	}
	if raw, _ := json.Marshal(oe); strings.Contains(string(raw), said) {
		t.Errorf("the error repeats the model's instruction: %s", raw)
	}
}

// TestTaskFailureEvidenceOfItsTab: a task given a tab handle that fails on its own account
// (the model claims success and the page says otherwise) keeps failure evidence of that
// tab. The handle is the session's ("t1"), not the worker's target id: evidence asked for
// it untranslated finds no tab and is only "unavailable".
func TestTaskFailureEvidenceOfItsTab(t *testing.T) {
	site, _ := taskSite(t)
	srv := modeltest.Start(t, modeltest.Step{Tool: "done"})
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	store := evidenceStore(t, "task-evidence")
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv },
		Evidence:  &runtime.EvidenceOptions{Store: store, RunID: "run-1", Owner: "task-evidence", OnFailure: true}})
	nav, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	q := taskOf("Sign in as alice")
	q.Tab = nav.Tab
	_, err = transport.Dispatch(bg, rt, q)
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodePostconditionFailed {
		t.Fatalf("err %v, want postcondition_failed", err)
	}
	evidence, unavailable := transport.EvidenceOf(err)
	if len(evidence) == 0 || len(unavailable) != 0 {
		t.Errorf("tab %s: evidence %+v, unavailable %+v; want the tab's evidence", q.Tab, evidence, unavailable)
	}
}

// TestModelKeyMaskedBeforeFirstModelCall: the API key is a secret of the session from the
// start, not only from the first model call: a page that shows it (a provider's dashboard)
// observed before any task ran does not put it in the output.
func TestModelKeyMaskedBeforeFirstModelCall(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Keys</title><p>Your key: %s</p>`, taskAPIKey)
	}))
	t.Cleanup(site.Close)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	cfg := model.Config{Provider: model.ProviderOpenAI, Model: "m", BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: taskAPIEnv}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { return taskAPIKey, k == taskAPIEnv }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ob.Text, taskAPIKey) || !strings.Contains(ob.Text, "Your key") {
		t.Errorf("the observation shows the API key unmasked:\n%s", ob.Text)
	}
}
