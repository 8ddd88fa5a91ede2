package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/model/modeltest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestServeTaskOverProtocol: a parent speaking protocol v1 to `fastbrowser serve --model …`
// (anthropic's wire format this time) runs a task as a frame; the task's
// result carries its turns and actions, the key (from serve's environment) authorises every
// model request and appears in none of their bodies nor on stdout/stderr.
func TestServeTaskOverProtocol(t *testing.T) {
	const key = "sk-serve-Key-7Hq2"
	site := runtimetest.Fixture()
	defer site.Close()
	srv := modeltest.Start(t,
		// the fixture /form: Notes e5, Sign in e7
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "type", "ref": "e5", "text": "hi"}, InputTokens: 100, OutputTokens: 9},
		modeltest.Step{Tool: "act", Args: map[string]string{"action": "click", "ref": "e7"}, InputTokens: 110, OutputTokens: 8},
	)
	cfg := srv.Config("anthropic", "FB_SERVE_MODEL_KEY")
	frames := []string{
		fmt.Sprintf(`{"v":1,"id":"1","op":"navigate","request":{"url":%q}}`, site.URL+"/form"),
		`{"v":1,"id":"2","op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":"pat"}}`,
		`{"v":1,"id":"3","op":"task","request":{"goal":"Sign in","postcondition":{"kind":"title","value":"Welcome"}}}`,
		`{"v":1,"id":"4","op":"close","request":{}}`,
	}
	out := serveTranscript(t, []string{"--allowed-origin", site.URL, "--model", "anthropic:" + cfg.Model, "--model-base-url", cfg.BaseURL, "--model-api-key-env", "FB_SERVE_MODEL_KEY"},
		[]string{"FB_SERVE_MODEL_KEY=" + key}, frames...)
	var task transport.TaskResult
	sc := bufio.NewScanner(strings.NewReader(out["stdout"]))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var f struct {
			ID     string
			Result json.RawMessage
			Error  *transport.OperationError
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("not a frame: %s", sc.Text())
		}
		if f.Error != nil {
			t.Errorf("frame %s failed: %v", f.ID, f.Error)
		}
		if f.ID == "3" {
			if err := json.Unmarshal(f.Result, &task); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(task.Turns) != 2 || len(task.Actions) != 2 || task.Turns[1].InputTokens != 110 || task.MutationState != transport.Verified || task.Tab == "" {
		t.Errorf("task result %+v: want two turns, two actions, verified, a tab handle", task)
	}
	if got := len(srv.Requests()); got != 2 {
		t.Errorf("the model was asked %d times, want 2", got)
	}
	for i, q := range srv.Requests() {
		if strings.Contains(string(q.Body), key) || q.Header.Get("x-api-key") != key {
			t.Errorf("model request %d: the key is in its body or not in its header", i+1)
		}
	}
	if strings.Contains(out["stdout"]+out["stderr"], key) {
		t.Error("the key reached serve's output")
	}
}
