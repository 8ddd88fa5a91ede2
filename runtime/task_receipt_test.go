package runtime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/transport"
)

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
