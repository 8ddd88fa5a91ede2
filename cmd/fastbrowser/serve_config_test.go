package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// writeServeConfig writes a fastbrowser.json holding body as its session block.
func writeServeConfig(t *testing.T, session string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fastbrowser.json")
	if err := os.WriteFile(p, []byte(`{"version":1,"session":`+session+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServeUsesSessionConfig: `serve --config FILE` hosts many sessions under the session
// block's binding; a session opened without an idle timeout or page_text budgets gets the
// block's, a request over the block's ceilings is budget_exceeded at its path, and the
// block's handoff classes end a batch on a bot check.
func TestServeUsesSessionConfig(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	cfg := writeServeConfig(t, fmt.Sprintf(`{"bindingOrigins":[%q],"idleTimeoutS":90,"pageText":{"maxNodes":5},
		"handoffClasses":["bot_check"],"ceilings":{"idleTimeoutS":600,"pageText":{"maxNodes":10}}}`, site.URL))
	s := startManyServe(t, "--config", cfg)

	opened := result(t, s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}}))
	if opened["idleTimeoutS"] != float64(90) {
		t.Errorf("idleTimeoutS %v, want the config's 90", opened["idleTimeoutS"])
	}
	a := opened["session"].(string)
	for _, c := range []struct {
		req  map[string]any
		path string
	}{
		{map[string]any{"idleTimeoutS": 601}, "request.idleTimeoutS"},
		{map[string]any{"pageText": map[string]any{"maxNodes": 11}}, "request.pageText.maxNodes"},
	} {
		c.req["task"], c.req["allowedOrigins"] = "A", []string{site.URL}
		if f := s.call("", "", "openSession", c.req); errCode(f) != "budget_exceeded" || errPath(f) != c.path {
			t.Errorf("openSession over the config's ceiling %v: %v; want budget_exceeded at %s", c.req, f["error"], c.path)
		}
	}
	batch := result(t, s.call(a, "A", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/read"},
		{"action": "page_text"},
	}}))
	pt := batch["actions"].([]any)[1].(map[string]any)["result"].(map[string]any)
	if n := countNodes(pt["nodes"]); pt["truncated"] != true || n > 5 {
		t.Errorf("page_text with the config's maxNodes 5: truncated %v, %d nodes", pt["truncated"], n)
	}
	ho := result(t, s.call(a, "A", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/captcha"},
		{"action": "page_text"},
	}}))
	if ho["posture"] != "handoff_required" || ho["actions"].([]any)[1].(map[string]any)["status"] != "skipped" {
		t.Errorf("a bot check under the config's handoff classes: %v", ho)
	}

	// A --binding-origin flag wins over the config's bindingOrigins.
	other := startManyServe(t, "--config", cfg, "--binding-origin", "http://127.0.0.1:1")
	if f := other.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}}); errCode(f) != "invalid_request" {
		t.Errorf("the config's binding was used over --binding-origin: %v", f)
	}
}

// TestServeSessionRequestTimeout: the session block's requestTimeoutMs bounds each call in a
// session: a navigation to a page that answers after 3 s fails at the 1 s bound, timeout (the
// batch ends with it), where the navigation budget alone would have waited for the page.
func TestServeSessionRequestTimeout(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := startManyServe(t, "--config", writeServeConfig(t, fmt.Sprintf(`{"bindingOrigins":[%q],"requestTimeoutMs":1000}`, site.URL)))
	a := result(t, s.call("", "", "openSession", map[string]any{"task": "A", "allowedOrigins": []string{site.URL}}))["session"].(string)
	b := result(t, s.call(a, "A", "batch", map[string]any{"actions": []map[string]any{
		{"action": "navigate", "url": site.URL + "/slow?ms=3000"},
		{"action": "page_text"},
	}}))
	acts := b["actions"].([]any)
	if b["posture"] != "failed" || b["code"] != "timeout" || acts[0].(map[string]any)["status"] != "failed" || acts[1].(map[string]any)["status"] != "skipped" {
		t.Fatalf("a navigation past the config's request bound: %v", b)
	}
}

// TestServeRefusesBadSessionConfig: a session block serve cannot use stops it before the
// ready frame with one error frame naming the file and the field (exit 2).
func TestServeRefusesBadSessionConfig(t *testing.T) {
	for _, c := range []struct{ session, msg string }{
		{`{"pageText":{"maxNodes":6000}}`, "session.pageText.maxNodes"},
		{`{"idleTimeout":5}`, "session.idleTimeout"},
		{`{"idleTimeoutS":60}`, "needs a binding"},
	} {
		cfg := writeServeConfig(t, c.session)
		lines, exit, stderr := serveUntilExit(t, "--config", cfg)
		if exit != 2 || len(lines) != 1 || !strings.Contains(lines[0], `"invalid_request"`) || !strings.Contains(lines[0], c.msg) {
			t.Errorf("serve --config with session %s: exit %d, stdout %q, want one invalid_request frame naming %s\nstderr: %s", c.session, exit, lines, c.msg, stderr)
		}
	}
}

// countNodes counts an outline's nodes, decoded as JSON.
func countNodes(v any) int {
	ns, _ := v.([]any)
	n := 0
	for _, x := range ns {
		m, _ := x.(map[string]any)
		n += 1 + countNodes(m["children"])
	}
	return n
}
