package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// Two secrets that nothing types: one only the fixture server gets, one only the hooks get.
const (
	serverSecret = "Srv3r-T0k&n<99>"
	hookSecret   = "H00k-s3cr3t&x<7>"
)

// printSecret is a shell script that prints the value of the variable name to stdout and
// stderr plain, base64-encoded, URL-escaped and JSON-escaped (as json.Marshal writes it),
// the way a careless server or hook logs a credential.
func printSecret(name string) string {
	v := `"$` + name + `"`
	return fmt.Sprintf(`printf 'plain %%s\n' %[1]s
printf 'plain on stderr %%s\n' %[1]s >&2
printf 'base64 %%s\n' "$(printf %%s %[1]s | base64 -w0)"
printf 'url %%s\n' "$(printf %%s %[1]s | sed 's/%%/%%25/g; s/&/%%26/g; s/</%%3C/g; s/>/%%3E/g')" >&2
printf 'json "%%s"\n' "$(printf %%s %[1]s | sed 's/&/\\u0026/g; s/</\\u003c/g; s/>/\\u003e/g')"
`, v)
}

// TestServerAndHookSecretsNeverLeak is item 5 of issue 16: the {"env"} values of a managed
// server's and of the setup and cleanup hooks' env are secrets from the run's first byte,
// though nothing types them. The server and the hooks print them (plain, base64, URL- and
// JSON-escaped, on stdout and stderr) with FASTBROWSER_DEBUG=1 sending that output to
// stderr; the scenario fails, so evidence is kept too. stdout, stderr, report.json,
// report.html, junit.xml and every artifact (the hook and server logs included) are free
// of both secrets in every form the sweep knows.
func TestServerAndHookSecretsNeverLeak(t *testing.T) {
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addr := freeAddr(t)
	base := "http://" + addr
	hook := func(which string) string {
		j, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", "echo " + which + " hook; " + printSecret("HOOK_TOKEN")},
			"env": map[string]any{"HOOK_TOKEN": map[string]string{"env": "HOOK_SECRET"}}})
		return string(j)
	}
	server, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", printSecret("FIXTURE_TOKEN") + "exec " + bin + " fixture serve --addr " + addr},
		"env": map[string]any{"FIXTURE_TOKEN": map[string]string{"env": "SERVER_SECRET"}}})
	f := writeScenario(t, dir, "servers.json", fmt.Sprintf(`{
  "version": 1, "id": "server-secrets",
  "fixture": {"baseUrl": %q, "server": {"mode": "managed", "start": %s, "readiness": {"url": %q}}},
  "hooks": {"setup": %s, "cleanup": %s},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "read", "op": "read"},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": "Welcome", "wait": "none"}}
  ]}`, base, server, base+"/health", hook("setup"), hook("cleanup")))
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"SERVER_SECRET": serverSecret, "HOOK_SECRET": hookSecret, "FASTBROWSER_DEBUG": "1"}, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	sc := readReport(t, filepath.Join(out, "report.json")).Scenarios[0]
	if sc.Operations[2].Error == nil || sc.Operations[2].Error.Code != "assertion_failed" {
		t.Fatalf("operations %+v", sc.Operations)
	}
	// The outputs were there to leak: each source's log was kept, masked, and the debug
	// stream carried the server's and hooks' lines.
	if len(sc.Diagnostics) != 3 {
		t.Fatalf("diagnostics %+v, want the setup hook, server and cleanup hook logs", sc.Diagnostics)
	}
	for _, m := range sc.Diagnostics {
		b, err := os.ReadFile(filepath.Join(out, "artifacts", m.Path))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), secrets.Mask); n < 5 {
			t.Errorf("%s: %d masks, want one per printed line at least:\n%s", m.Path, n, b)
		}
	}
	if !strings.Contains(res.stderr, "plain on stderr "+secrets.Mask) || !strings.Contains(res.stderr, "cleanup hook") {
		t.Errorf("FASTBROWSER_DEBUG stderr lacks the masked server and hook lines:\n%s", res.stderr)
	}
	for _, secret := range []string{serverSecret, hookSecret} {
		if n := sweepForSecret(t, secret, out, map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)}); n < 6 {
			t.Errorf("swept %d files, want the three reports and the artifacts", n)
		}
	}

	// replay starts the same server and hooks: its outputs are as clean.
	again := filepath.Join(dir, "replay")
	rep := runCLI(t, map[string]string{"SERVER_SECRET": serverSecret, "HOOK_SECRET": hookSecret, "FASTBROWSER_DEBUG": "1"},
		"replay", "--out", again, filepath.Join(out, "report.json"))
	if rep.code != 1 || !strings.Contains(rep.stdout, "reproduced: true") {
		t.Fatalf("replay: exit %d\n%s%s", rep.code, rep.stdout, rep.stderr)
	}
	if !strings.Contains(rep.stderr, "plain on stderr "+secrets.Mask) {
		t.Errorf("replay's FASTBROWSER_DEBUG stderr lacks the masked server line:\n%s", rep.stderr)
	}
	for _, secret := range []string{serverSecret, hookSecret} {
		sweepForSecret(t, secret, again, map[string][]byte{"replay stdout": []byte(rep.stdout), "replay stderr": []byte(rep.stderr)})
	}
}

// TestValidateRefusesSecretInInstruction: a step instruction holding the value of a secret
// (here a hook's) is refused by validate and by run with its path, and the value appears
// in no output.
func TestValidateRefusesSecretInInstruction(t *testing.T) {
	dir := t.TempDir()
	f := writeScenario(t, dir, "instr.json", fmt.Sprintf(`{
  "version": 1, "id": "instruction-secret",
  "fixture": {"baseUrl": "http://127.0.0.1:1"},
  "hooks": {"setup": {"command": "/bin/true", "env": {"T": {"env": "HOOK_SECRET"}}}},
  "operations": [
    {"op": "navigate", "request": {"url": "/form"}},
    {"op": "step", "step": {"instruction": "Sign in as %s", "action": "click", "postcondition": {"kind": "text", "value": "Welcome"}}}
  ]}`, hookSecret))
	env := map[string]string{"HOOK_SECRET": hookSecret}
	for _, cmd := range []string{"validate", "run"} {
		res := runCLI(t, env, cmd, "--out", filepath.Join(dir, "out"), f)
		if cmd == "validate" {
			res = runCLI(t, env, cmd, f)
		}
		if res.code != 2 || !strings.Contains(res.stderr, "operations[1].step.instruction") || !strings.Contains(res.stderr, "HOOK_SECRET") {
			t.Errorf("%s: exit %d, want 2 naming the path and the variable\n%s%s", cmd, res.code, res.stdout, res.stderr)
		}
		sweepForSecret(t, hookSecret, "", map[string][]byte{cmd + " stdout": []byte(res.stdout), cmd + " stderr": []byte(res.stderr)})
	}
	// Without the secret set, validate has nothing to compare and accepts the file.
	if res := runCLI(t, nil, "validate", f); res.code != 0 {
		t.Errorf("validate without the secret: exit %d\n%s", res.code, res.stderr)
	}
}

// quotedSecret has what the outline's quoting escapes (`"` and `\`) and a non-ASCII letter.
const quotedSecret = `Tok"en\é-42`

// TestQuotedSecretNeverLeaks is item 9 of issue 16: a secret holding `"`, `\` and é is typed
// into a page that echoes it into its text, title, URL and console; observe shows it in the
// outline (Go-quoted: `Tok\"en\\é-42`), read in the text, and the failure keeps the
// outline and console as evidence. report.json, report.html, junit.xml, every artifact,
// stdout and stderr hold it in no form; then the same through serve's results.
func TestQuotedSecretNeverLeaks(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "quoted.json", fmt.Sprintf(`{
  "version": 1, "id": "quoted-secret",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "token", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "QUOTED_TOKEN"}}},
    {"id": "look", "op": "observe"},
    {"id": "read", "op": "read"},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": "Welcome", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"QUOTED_TOKEN": quotedSecret}, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	ops := readReport(t, filepath.Join(out, "report.json")).Scenarios[0].Operations
	var look struct{ Text string }
	if err := json.Unmarshal(ops[2].Result, &look); err != nil || !strings.Contains(look.Text, `"You typed: `+secrets.Mask+`"`) {
		t.Errorf("the outline does not show the masked echo (%v):\n%s", err, look.Text)
	}
	kinds := map[string]bool{}
	for _, m := range ops[4].Evidence {
		kinds[m.Kind] = true
	}
	if !kinds["outline"] || !kinds["console"] {
		t.Errorf("evidence %+v: want the outline and console kept", ops[4].Evidence)
	}
	sweepForSecret(t, quotedSecret, out, map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)})

	transcript := serveTranscript(t, []string{"--allowed-origin", site.URL}, []string{"QUOTED_TOKEN=" + quotedSecret},
		`{"v":1,"id":"1","op":"navigate","request":{"url":"`+site.URL+`/echo"}}`,
		`{"v":1,"id":"2","op":"act","request":{"action":"type","target":{"role":"textbox","name":"Token"},"text":{"env":"QUOTED_TOKEN"}}}`,
		`{"v":1,"id":"3","op":"observe"}`,
		`{"v":1,"id":"4","op":"read"}`,
		`{"v":1,"id":"5","op":"assert","request":{"kind":"titleContains","value":"nope","wait":"none"}}`,
	)
	if !strings.Contains(transcript["stdout"], `\"You typed: `+secrets.Mask+`\"`) {
		t.Errorf("serve's observe does not show the masked echo:\n%s", transcript["stdout"])
	}
	sweepForSecret(t, quotedSecret, "", map[string][]byte{"serve stdout": []byte(transcript["stdout"]), "serve stderr": []byte(transcript["stderr"])})
}

// TestServeSecretEnvMasksBeforeAct: serve --secret-env NAME registers the value when serve
// starts, so a page that shows it before any act types it (here in its URL) is masked in
// every result; with FASTBROWSER_DEBUG=1 the browser's and worker's stderr goes through
// the same scrubber. An unset --secret-env variable is refused (exit 2, named, no value).
func TestServeSecretEnvMasksBeforeAct(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	page := site.URL + "/echo?token=" + url.QueryEscape(serverSecret)
	transcript := serveTranscript(t, []string{"--allowed-origin", site.URL, "--secret-env", "SERVE_TOKEN"},
		[]string{"SERVE_TOKEN=" + serverSecret, "FASTBROWSER_DEBUG=1"},
		`{"v":1,"id":"1","op":"navigate","request":{"url":"`+page+`"}}`,
		`{"v":1,"id":"2","op":"read"}`,
		`{"v":1,"id":"3","op":"observe"}`,
	)
	if !strings.Contains(transcript["stdout"], `"id":"2","result"`) || !strings.Contains(transcript["stdout"], secrets.Mask) {
		t.Errorf("no masked read result:\n%s", transcript["stdout"])
	}
	sweepForSecret(t, serverSecret, "", map[string][]byte{"serve stdout": []byte(transcript["stdout"]), "serve stderr": []byte(transcript["stderr"])})

	bin, _ := runtimetest.Binary()
	cmd := exec.Command(bin, "serve", "--secret-env", "FASTBROWSER_UNSET_SECRET")
	cmd.Env = os.Environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "FASTBROWSER_UNSET_SECRET") {
		t.Errorf("unset --secret-env: %v\n%s", err, stderr.String())
	}
}

// serveTranscript runs `fastbrowser serve` with args and env added to the environment, sends
// the request lines and returns its stdout and stderr once it has answered them and exited.
func serveTranscript(t *testing.T, args, env []string, lines ...string) map[string]string {
	t.Helper()
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	stdout, stderr := &proctest.SyncBuffer{}, &proctest.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v\n%s%s", err, stdout.String(), stderr.String())
		}
	case <-time.After(90 * time.Second): // a guard against a hang, not a measurement
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("serve did not answer within 90 s\n%s", stdout.String())
	}
	if got := strings.Count(stdout.String(), "\n"); got != len(lines)+1 {
		t.Fatalf("%d lines from serve, want the ready frame and %d answers:\n%s", got, len(lines), stdout.String())
	}
	return map[string]string{"stdout": stdout.String(), "stderr": stderr.String()}
}
