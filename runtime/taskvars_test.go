package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Task variables: the goal names values as %name%; a literal is shown to the model, an
// {"env"} one never is and is typed by its placeholder.

const (
	varPasswordEnv  = "FASTBROWSER_TEST_PORTAL_PASSWORD"
	varPasswordText = "pw-Portal-Secret-4410"
)

// varsPage echoes what the Username field holds as visible text and has a link named after
// a user, on the same page.
const varsPage = `<!doctype html><title>Portal</title>
<label>Username <input id=u type=text oninput="document.getElementById('who').textContent='User is '+this.value"></label>
<p id=who></p>
<a href="#profile" onclick="document.getElementById('opened').textContent='Profile opened'">Profile of alice</a>
<p id=opened></p>`

// openVarsSession opens a session on varsPage with the scripted model and the password in
// its environment.
func openVarsSession(t *testing.T, srv *modeltest.Server) transport.Caller {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, varsPage)
	}))
	t.Cleanup(site.Close)
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	cfg := srv.Config(model.ProviderOpenAI, taskAPIEnv)
	env := map[string]string{taskAPIEnv: taskAPIKey, varPasswordEnv: varPasswordText, "FASTBROWSER_TEST_SHORT": "abc"}
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL(), AllowedOrigins: []string{site.URL}, Model: &cfg,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	return rt
}

// modelSaw is every model request body, joined.
func modelSaw(srv *modeltest.Server) string {
	var b strings.Builder
	for _, r := range srv.Requests() {
		b.Write(r.Body)
	}
	return b.String()
}

// TestTaskEnvVariableTypedByPlaceholder: the model types %password%; the page gets the
// value, the model never sees it, and the accounting names the placeholder and the variable.
func TestTaskEnvVariableTypedByPlaceholder(t *testing.T) {
	srv := modeltest.Start(t)
	rt := openVarsSession(t, srv)
	user := refFor(t, rt, "textbox", "Username")
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "%password%"}})
	res, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Type %password% into the Username field", MaxActions: 1,
		Variables: map[string]*transport.Text{"password": transport.FromEnv(varPasswordEnv)}})
	if err != nil {
		t.Fatalf("task: %v", err)
	}
	if len(res.Actions) != 1 {
		t.Fatalf("actions %+v, want one", res.Actions)
	}
	if a := res.Actions[0]; a.Text != "%password%" || !slices.Equal(a.Variables, []string{"password"}) {
		t.Errorf("action text %q variables %v, want %%password%% and [password]", a.Text, a.Variables)
	}
	// The page holds the value: only a registered secret reads back masked, and the
	// placeholder itself would read back as written.
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ob.Text, "User is [secret]") || strings.Contains(ob.Text, "%password%") {
		t.Errorf("the page does not show the typed value (masked):\n%s", ob.Text)
	}
	saw := modelSaw(srv)
	if strings.Contains(saw, varPasswordText) {
		t.Error("a model request holds the password's value")
	}
	if !strings.Contains(saw, "Type %password% into the Username field") || !strings.Contains(saw, "write the placeholder itself as the text") {
		t.Errorf("the model was not shown the placeholder and how to type it: %s", saw)
	}
	raw, _ := json.Marshal(res)
	if strings.Contains(string(raw), varPasswordText) || !strings.Contains(string(raw), `"variables":["password"]`) {
		t.Errorf("result %s: want the variable named and never its value", raw)
	}
	noLeaks(t, srv, res)
}

// TestTaskLiteralVariableShownAndNormalised: a literal is shown to the model in its
// placeholder's place, with no word about placeholders; the model typing that value is
// accounted as the placeholder.
func TestTaskLiteralVariableShownAndNormalised(t *testing.T) {
	srv := modeltest.Start(t)
	rt := openVarsSession(t, srv)
	user := refFor(t, rt, "textbox", "Username")
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": user, "text": "alice"}})
	res, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Type %user% into the Username field, 100%sure%", MaxActions: 1,
		Variables: map[string]*transport.Text{"user": transport.Literal("alice")}})
	if err != nil {
		t.Fatalf("task: %v", err)
	}
	if a := res.Actions[0]; a.Text != "%user%" || !slices.Equal(a.Variables, []string{"user"}) {
		t.Errorf("action text %q variables %v, want %%user%% and [user]", a.Text, a.Variables)
	}
	saw := modelSaw(srv)
	// An undeclared %sure% is text, left as written.
	if !strings.Contains(saw, "Type alice into the Username field, 100%sure%") || strings.Contains(saw, "%user%") || strings.Contains(saw, "placeholder itself") {
		t.Errorf("the model was not shown the literal in its placeholder's place (alone): %s", saw)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Assert{Kind: transport.AssertTextContains, Value: "User is alice", Wait: transport.WaitNone}); err != nil {
		t.Errorf("the page did not get the literal: %v", err)
	}
}

// TestTaskLiteralVariableInLinkName: a click on a link whose accessible name holds a literal
// variable's value lists that variable (a recording of it depends on the value).
func TestTaskLiteralVariableInLinkName(t *testing.T) {
	srv := modeltest.Start(t)
	rt := openVarsSession(t, srv)
	link := refFor(t, rt, "link", "Profile of alice")
	srv.Script(modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": link}})
	res, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Open the profile of %user%", MaxActions: 1,
		Variables: map[string]*transport.Text{"user": transport.Literal("alice"), "other": transport.Literal("bob")}})
	if err != nil {
		t.Fatalf("task: %v", err)
	}
	if a := res.Actions[0]; a.Text != "" || !slices.Equal(a.Variables, []string{"user"}) {
		t.Errorf("action %+v, want variables [user] and no text", a)
	}
}

// TestTaskVariablesRefused: a bad name, an unset environment variable and a value too short
// to mask are refused with the variable's path before the model is asked.
func TestTaskVariablesRefused(t *testing.T) {
	srv := modeltest.Start(t)
	rt := openVarsSession(t, srv)
	for _, c := range []struct {
		vars map[string]*transport.Text
		path string
	}{
		{map[string]*transport.Text{"bad-name": transport.Literal("x")}, "request.variables.bad-name"},
		{map[string]*transport.Text{"pin": transport.FromEnv("FASTBROWSER_TEST_UNSET")}, "request.variables.pin.env"},
		{map[string]*transport.Text{"pin": transport.FromEnv("FASTBROWSER_TEST_SHORT")}, "request.variables.pin.env"},
		{map[string]*transport.Text{"note": transport.Literal("mine is " + varPasswordText), "pw": transport.FromEnv(varPasswordEnv)}, "request.variables.note"},
	} {
		_, err := transport.Dispatch(bg, rt, transport.Task{Goal: "Type %pin%", MaxActions: 1, Variables: c.vars})
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Code != transport.CodeInvalidRequest || oe.Path != c.path || oe.MutationState != transport.NotAttempted {
			t.Errorf("variables %v: err %v (path %q), want invalid_request at %s", slices.Sorted(maps.Keys(c.vars)), err, pathOf(oe), c.path)
		}
		if oe != nil && strings.Contains(oe.Message, varPasswordText) {
			t.Errorf("the refusal names the secret: %s", oe.Message)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was asked %d times", n)
	}
}

func pathOf(oe *transport.OperationError) string {
	if oe == nil {
		return ""
	}
	return oe.Path
}
