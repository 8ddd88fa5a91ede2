package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// TestServerLogOnlyWhenItFailed is issue 26's console noise: a passing scenario whose
// managed server logs every request prints none of its lines by default
// (--server-log on-failure) and streams them, secrets masked, with --server-log always; a
// failing hook's output is shown after the scenario's error by default, and not with never.
func TestServerLogOnlyWhenItFailed(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir, outs := t.TempDir(), t.TempDir()
	addr := freeAddr(t)
	base := "http://" + addr
	server, _ := json.Marshal(map[string]any{"command": "/bin/sh",
		"args": []string{"-c", "echo chatty server starting; " + printSecret("FIXTURE_TOKEN") + "exec " + bin + " fixture serve --log --addr " + addr},
		"env":  map[string]any{"FIXTURE_TOKEN": map[string]string{"env": "SERVER_SECRET"}}})
	f := writeScenario(t, dir, "chatty.json", fmt.Sprintf(`{
  "version": 1, "id": "chatty",
  "fixture": {"baseUrl": %q, "server": {"mode": "managed", "start": %s, "readiness": {"url": %q}}},
  "operations": [{"op": "navigate", "request": {"url": "/echo"}}]}`, base, server, base+"/health"))
	env := map[string]string{"SERVER_SECRET": serverSecret}

	res := runCLI(t, env, "run", "--out", filepath.Join(outs, "quiet"), f)
	if res.code != 0 {
		t.Fatalf("default: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if all := res.stdout + res.stderr; strings.Contains(all, "chatty server starting") || strings.Contains(all, "/echo") {
		t.Errorf("a passing scenario printed its server's output by default:\n%s", all)
	}

	res = runCLI(t, env, "run", "--server-log", "always", "--out", filepath.Join(outs, "loud"), f)
	if res.code != 0 {
		t.Fatalf("always: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "chatty server starting") || !strings.Contains(res.stdout, "/echo") || !strings.Contains(res.stdout, "plain "+secrets.Mask) {
		t.Errorf("--server-log always did not stream the server's lines, masked:\n%s", res.stdout)
	}
	sweepForSecret(t, serverSecret, "", map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)})

	if res := runCLI(t, nil, "run", "--server-log", "sometimes", "--out", filepath.Join(outs, "bad"), f); res.code != 2 || !strings.Contains(res.stderr, "expected on-failure, always or never") {
		t.Errorf("bad --server-log: exit %d\n%s", res.code, res.stderr)
	}

	site := runtimetest.Fixture()
	defer site.Close()
	g := writeScenario(t, dir, "hook.json", fmt.Sprintf(`{
  "version": 1, "id": "failing-hook",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "hooks": {"setup": {"command": "/bin/sh", "args": ["-c", "echo seeding users; echo boom: database locked >&2; exit 3"]}},
  "operations": [{"op": "navigate", "request": {"url": "/"}}]}`, site.URL, site.URL+"/health"))
	res = runCLI(t, nil, "run", "--out", filepath.Join(outs, "hook"), g)
	if res.code != 1 {
		t.Fatalf("failing hook: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	errAt, logAt := strings.Index(res.stdout, "hook_failed"), strings.Index(res.stdout, "setup hook failed; its output (last lines of ")
	if errAt < 0 || logAt < errAt || !strings.Contains(res.stdout, "| seeding users") || !strings.Contains(res.stdout, "| boom: database locked") {
		t.Errorf("the failing hook's output is not shown after its error:\n%s", res.stdout)
	}
	res = runCLI(t, nil, "run", "--server-log", "never", "--out", filepath.Join(outs, "never"), g)
	if res.code != 1 || strings.Contains(res.stdout, "boom") {
		t.Errorf("--server-log never: exit %d\n%s", res.code, res.stdout)
	}
}
