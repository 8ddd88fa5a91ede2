package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
)

// export calls browser_export and returns the file and the result: inside the envelope when
// it succeeded (the file names elements as the page did), the text being the structured
// content's JSON as for every tool.
func (c *mcpClient) export(args map[string]any) (string, map[string]any, bool) {
	c.t.Helper()
	out, isErr := c.call("browser_export", args)
	if isErr {
		return "", out, true
	}
	out = enveloped(c.t, out)
	file, _ := out["file"].(string)
	return file, out, false
}

// TestMCPExportReplays: an MCP session on the fixture shop (which checks the password) —
// the username typed by ref, the password by browser_type_secret, Log in clicked by ref, a
// failed assertion, the signed-in assertion, the orders page — exported by browser_export:
// the file validates, holds the password as {"env": "FIXTURE_PW"} and never its value,
// names the elements by role and name (no ref), leaves the failed call and the reads out,
// and `fastbrowser run` replays it with FIXTURE_PW set on a fresh browser. A bad scenario
// id and an unknown session are refused.
func TestMCPExportReplays(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	c := startMCP(t, "--binding-origin", shop, "--secret-env", "FIXTURE_PW")
	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)
	in := func(args map[string]any) map[string]any { args["session"] = session; return args }

	enveloped(t, c.ok("browser_navigate", in(map[string]any{"url": shop + "/shop/login"})))
	outline := enveloped(t, c.ok("browser_observe", in(map[string]any{})))["text"].(string)
	user, pw, login := outlineRef(t, outline, "textbox", "Username"), outlineRef(t, outline, "password", "Password"), outlineRef(t, outline, "button", "Log in")
	c.ok("browser_act", in(map[string]any{"action": "type", "target": map[string]any{"ref": user}, "text": "alice"}))
	c.ok("browser_type_secret", in(map[string]any{"target": map[string]any{"ref": pw}, "name": "FIXTURE_PW"}))
	if e := c.refused("browser_assert", in(map[string]any{"kind": "textContains", "value": "Nowhere-on-the-page", "wait": "none"})); e["code"] != "assertion_failed" {
		t.Fatalf("the failing assertion: %v", e)
	}
	c.ok("browser_act", in(map[string]any{"action": "click", "target": map[string]any{"ref": login}}))
	c.ok("browser_assert", in(map[string]any{"kind": "textContains", "value": "Signed in as alice"}))
	enveloped(t, c.ok("browser_navigate", in(map[string]any{"url": shop + "/shop/orders"})))
	enveloped(t, c.ok("browser_read", in(map[string]any{})))

	if _, e, isErr := c.export(in(map[string]any{"id": "no spaces allowed"})); !isErr || e["error"].(map[string]any)["code"] != "invalid_request" {
		t.Errorf("export with a bad id: %v; want invalid_request", e)
	}
	if _, e, isErr := c.export(map[string]any{"session": "s99"}); !isErr || e["error"].(map[string]any)["code"] != "session_not_found" {
		t.Errorf("export of an unknown session: %v; want session_not_found", e)
	}
	file, out, isErr := c.export(in(map[string]any{"id": "mcp-signin"}))
	if isErr {
		t.Fatalf("export: %v", out)
	}
	t.Logf("exported, warnings %v:\n%s", out["warnings"], file)
	if out["operations"] != float64(6) {
		t.Errorf("export: %v operations, want 6 (navigate, type, type_secret, click, assert, navigate):\n%s", out["operations"], file)
	}
	var f struct {
		ID             string   `json:"id"`
		AllowedOrigins []string `json:"allowedOrigins"`
		Operations     []struct {
			Op      string          `json:"op"`
			Words   string          `json:"words"`
			Request json.RawMessage `json:"request"`
		} `json:"operations"`
	}
	if err := json.Unmarshal([]byte(file), &f); err != nil {
		t.Fatalf("the file: %v\n%s", err, file)
	}
	var ops []string
	for _, op := range f.Operations {
		ops = append(ops, op.Op)
	}
	if f.ID != "mcp-signin" || len(f.AllowedOrigins) != 1 || f.AllowedOrigins[0] != shop ||
		strings.Join(ops, " ") != "navigate act act act assert navigate" {
		t.Fatalf("the file's id %q, origins %v, operations %v:\n%s", f.ID, f.AllowedOrigins, ops, file)
	}
	if len(f.Operations) == 6 && (f.Operations[1].Words != `Type "alice" into the "Username" field` || f.Operations[3].Words != `Click the "Log in" button`) {
		t.Errorf("the by-ref acts' words %q, %q", f.Operations[1].Words, f.Operations[3].Words)
	}
	for _, want := range []string{`"env": "FIXTURE_PW"`, `"role": "password"`, `"name": "Password"`, `"role": "button"`, `"name": "Log in"`} {
		if !strings.Contains(file, want) {
			t.Errorf("the file lacks %s:\n%s", want, file)
		}
	}
	for _, banned := range []string{`"ref"`, "Nowhere-on-the-page", mcpPassword} {
		if strings.Contains(file, banned) {
			t.Errorf("the file holds %q:\n%s", banned, file)
		}
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "mcp-signin.json")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, nil, "validate", path); res.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	// The shop checks the password: a replay with another value fails the assertion, so
	// the passing replay below typed the one the variable holds.
	if res := runCLI(t, map[string]string{"FIXTURE_PW": "not-the-password"}, "run", "--trace", "off", "--out", filepath.Join(dir, "wrong"), path); res.code != exitFailed {
		t.Errorf("run with another password: exit %d, want %d (the sign-in assertion fails)\n%s%s", res.code, exitFailed, res.stdout, res.stderr)
	}
	results := filepath.Join(dir, "results")
	res := runCLI(t, map[string]string{"FIXTURE_PW": mcpPassword}, "run", "--trace", "off", "--out", results, path)
	if res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(results, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep scenario.Report
	if err := json.Unmarshal(raw, &rep); err != nil || len(rep.Scenarios) != 1 || rep.Scenarios[0].Status != scenario.StatusPassed {
		t.Fatalf("run report: %v\n%s", err, raw)
	}

	// The export also works once the session is closed.
	c.ok("browser_close", in(map[string]any{}))
	if again, _, isErr := c.export(in(map[string]any{"id": "mcp-signin"})); isErr || again != file {
		t.Errorf("export after close differs or fails:\n%s", again)
	}
	texts := map[string][]byte{"mcp stderr": []byte(c.stderr.String()), "run output": []byte(res.stdout + res.stderr)}
	for i, r := range c.results {
		texts["tool result "+strconv.Itoa(i)] = []byte(r)
	}
	sweepForSecret(t, mcpPassword, results, texts)
}
