package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestServeManyBatchSubmit: the submit verb presses Enter in the field it names, which
// submits its form; page_text then reads the page the form led to.
func TestServeManyBatchSubmit(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL)
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "S", "allowedOrigins": []string{site.URL}}))["session"].(string)
	username := map[string]any{"role": "textbox", "name": "Username"}
	r := result(t, s.call(id, "S", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/form"},
		{"action": "type", "target": username, "text": "ada"},
		{"action": "submit", "target": username},
		{"action": "page_text"},
	}}))
	if r["posture"] != "ok" {
		t.Fatalf("batch %v", r)
	}
	actions := r["actions"].([]any)
	page := actions[3].(map[string]any)
	if page["status"] != "ok" || !strings.Contains(jsonOf(t, page), "Welcome, ada") {
		t.Fatalf("page_text after submit: %s, want the welcome page for ada", jsonOf(t, page))
	}
}

// TestServeManyBatchRefusals: a batch whose verb is unknown or whose action lacks what its
// verb needs is refused whole, naming the field, before anything runs.
func TestServeManyBatchRefusals(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--binding-origin", site.URL)
	id := result(t, s.call("", "", "openSession", map[string]any{"task": "R", "allowedOrigins": []string{site.URL}}))["session"].(string)
	for _, tc := range []struct {
		actions []map[string]any
		path    string
	}{
		{[]map[string]any{{"action": "navigate", "url": site.URL + "/about"}, {"action": "scroll"}}, "request.actions[1].action"},
		{[]map[string]any{{"action": "submit"}}, "request.actions[0].target"},
		{[]map[string]any{{"action": "navigate"}}, "request.actions[0].url"},
		{[]map[string]any{{"action": "type", "target": map[string]any{"role": "textbox", "name": "Username"}}}, "request.actions[0]"},
		{[]map[string]any{}, "request.actions"},
	} {
		f := s.call(id, "R", "batch", map[string]any{"actions": tc.actions})
		e, _ := f["error"].(map[string]any)
		if e == nil || e["code"] != "invalid_request" || e["path"] != tc.path {
			t.Errorf("batch %v: %v, want invalid_request at %s", tc.actions, f, tc.path)
		}
	}
	// Nothing ran: the first refused batch's navigate to /about never happened.
	if tabs := result(t, s.call(id, "R", "listTabs", nil)); strings.Contains(jsonOf(t, tabs), "/about") {
		t.Errorf("a refused batch ran an action: %s", jsonOf(t, tabs))
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
