package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// fixtureFile is a scenario file whose managed server is `fastbrowser fixture serve --addr
// addr` with extra args, and whose operations are ops (JSON).
func fixtureFile(t *testing.T, dir, name, addr string, extra []string, hooks, ops string) string {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	start, _ := json.Marshal(map[string]any{"command": bin, "args": append([]string{"fixture", "serve", "--addr", addr}, extra...)})
	if hooks == "" {
		hooks = "{}"
	}
	return writeScenario(t, dir, name, fmt.Sprintf(`{
  "version": 1, "id": %q,
  "fixture": {"baseUrl": "http://%s", "server": {"mode": "managed", "start": %s, "readiness": {"url": "http://%s/health"}}},
  "hooks": %s,
  "operations": %s
}`, strings.TrimSuffix(name, ".json"), addr, start, addr, hooks, ops))
}

// TestRunHeaderSaysSharedAndTurns is item 1 of issue 11 at the CLI: four files naming one
// managed server and two naming different servers on another address; the header says
// which are shared and which take turns, every scenario passes, and no fixture process
// outlives the run.
func TestRunHeaderSaysSharedAndTurns(t *testing.T) {
	dir := t.TempDir()
	shared, turns := freeAddr(t), freeAddr(t)
	ops := `[{"op": "navigate", "request": {"url": "/"}}, {"op": "assert", "request": {"kind": "title", "value": "Fastbrowser Fixture"}}]`
	for i := 1; i <= 4; i++ {
		fixtureFile(t, dir, fmt.Sprintf("shared-%d.json", i), shared, nil, "", ops)
	}
	fixtureFile(t, dir, "turn-a.json", turns, nil, "", ops)
	fixtureFile(t, dir, "turn-b.json", turns, []string{"--log"}, "", ops)
	res := runCLI(t, nil, "run", "--jobs", "2", "--out", filepath.Join(dir, "out"), dir)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	header := strings.SplitN(res.stdout, "\n", 2)[0]
	want := fmt.Sprintf("running 6 scenarios, up to 2 at a time (1 managed server shared by 4 scenarios; 2 take turns on %s: different servers on one address)", turns)
	if header != want {
		t.Errorf("header\n %q\nwant\n %q", header, want)
	}
	for _, addr := range []string{shared, turns} {
		if procs := proctest.Cmdlines("fixture serve --addr " + addr); len(procs) != 0 {
			t.Errorf("fixture processes left on %s: %v", addr, procs)
		}
	}
}

// TestUnsetServerOrHookEnvRefusedAtLoad is item 7 of issue 11: a managed server's or a
// hook's {"env":"NAME"} that is unset (or too short to be masked) is refused before anything
// starts, exit 2, naming the field path and the variable and never the value; --json says
// the same. validate checks files without the run's environment (README: secrets need not
// be set), so it accepts the same file.
func TestUnsetServerOrHookEnvRefusedAtLoad(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	touch, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", "touch " + marker}, "env": map[string]any{"TOKEN": map[string]string{"env": "FB_TEST_HOOK_TOKEN"}}})
	addr := freeAddr(t)
	server := fixtureFile(t, dir, "server.json", addr, nil, "", `[{"op": "navigate", "request": {"url": "/"}}]`)
	// The server's env: rewrite the start command with one {"env"} entry.
	data, _ := os.ReadFile(server)
	data = []byte(strings.Replace(string(data), `"args":`, `"env": {"SERVER_TOKEN": {"env": "FB_TEST_SERVER_TOKEN"}}, "args":`, 1))
	if err := os.WriteFile(server, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hook := writeScenario(t, dir, "hook.json", fmt.Sprintf(`{"version": 1, "id": "hook", "fixture": {"baseUrl": "http://%s"},
  "hooks": {"setup": %s}, "operations": [{"op": "navigate", "request": {"url": "/"}}]}`, addr, touch))
	for _, c := range []struct {
		file, path, name string
		env              map[string]string
		says             string
	}{
		{server, "fixture.server.start.env.SERVER_TOKEN.env", "FB_TEST_SERVER_TOKEN", nil, "is not set"},
		{hook, "hooks.setup.env.TOKEN.env", "FB_TEST_HOOK_TOKEN", nil, "is not set"},
		{hook, "hooks.setup.env.TOKEN.env", "FB_TEST_HOOK_TOKEN", map[string]string{"FB_TEST_HOOK_TOKEN": "x9q"}, "shorter than"},
	} {
		res := runCLI(t, c.env, "run", "--out", filepath.Join(dir, "out"), c.file)
		if res.code != 2 || !strings.Contains(res.stderr, c.path) || !strings.Contains(res.stderr, c.name) || !strings.Contains(res.stderr, c.says) {
			t.Errorf("run %s: exit %d, want 2 naming %s and %s (%s)\n%s%s", filepath.Base(c.file), res.code, c.path, c.name, c.says, res.stdout, res.stderr)
		}
		js := runCLI(t, c.env, "run", "--json", "--out", filepath.Join(dir, "out"), c.file)
		if js.code != 2 || !strings.Contains(js.stdout, `"path":"`+c.path+`"`) || !strings.Contains(js.stdout, `"code":"invalid_request"`) {
			t.Errorf("run --json %s: exit %d\n%s", filepath.Base(c.file), js.code, js.stdout)
		}
		for _, v := range c.env {
			if strings.Contains(res.stdout+res.stderr+js.stdout+js.stderr, v) {
				t.Errorf("the value of %s was printed", c.name)
			}
		}
		if v := runCLI(t, c.env, "validate", c.file); v.code != 0 {
			t.Errorf("validate %s: exit %d\n%s", filepath.Base(c.file), v.code, v.stderr)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the hook ran although the file was refused")
	}
	if procs := proctest.Cmdlines("fixture serve --addr " + addr); len(procs) != 0 {
		t.Errorf("a fixture server was started: %v", procs)
	}
}
