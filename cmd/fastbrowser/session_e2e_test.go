package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// sessionPassword escapes differently in every form the sweep looks for (URL query and
// path, base64 std and URL, JSON, HTML) and is typeable; the shop accepts it.
const sessionPassword = `p&ss<w0rd>"+/=`

// TestSessionSignInExportNoSecret is issue 12's acceptance 1, each command its own process:
// open the shop → type a username literal → type the password from {"env":"PORTAL_PASSWORD"}
// (set only in that do's environment) → a click on a ref that is not there fails
// element_not_found → click Log in → describe --find → export --out. The exported file passes
// validate and replays with `fastbrowser run` in a fresh browser; the password is in no
// stdout, stderr, state file, history, artifact, export or run output, in any encoding.
func TestSessionSignInExportNoSecret(t *testing.T) {
	base := shopServer(t, sessionPassword)
	s := newSessionCLI(t)
	id, open := s.open(base + "/shop/")
	if !strings.Contains(open.str("outline"), `password [e2] "Password"`) || !strings.Contains(open.str("outline"), `button [e3] "Log in"`) {
		t.Fatalf("open: not the sign-in page:\n%s", open.stdout)
	}

	if r := s.do(id, `{"type":{"into":"e1","text":"alice"}}`); r.code != 0 || r.str("status") != sessions.StatusDone {
		t.Fatalf("type the username: exit %d\n%s", r.code, r.stdout)
	}
	pw := s.run(sessionCmdOpts{stdin: `{"type":{"into":"e2","text":{"env":"PORTAL_PASSWORD"}}}`, env: []string{"PORTAL_PASSWORD=" + sessionPassword}},
		"session", "do", id)
	if pw.code != 0 || pw.str("status") != sessions.StatusDone {
		t.Fatalf("type the password: exit %d\n%s", pw.code, pw.stdout)
	}
	// A redacted screenshot with the password typed: an artifact in the store to sweep.
	if r := s.run(sessionCmdOpts{}, "session", "describe", id, "--screenshot"); r.code != 0 {
		t.Fatalf("describe --screenshot: exit %d\n%s", r.code, r.stdout)
	}
	miss := s.do(id, `{"click":"e99"}`)
	if miss.code != 1 || miss.str("status") != sessions.StatusFailed || miss.errorCode() != sessions.CodeOperationFailed || miss.str("error", "cause") != "element_not_found" {
		t.Fatalf("click on a ref not on the page: exit %d, want 1 with status failed, operation_failed, cause element_not_found\n%s", miss.code, miss.stdout)
	}
	if r := s.do(id, `{"click":"e3"}`); r.code != 0 || r.str("status") != sessions.StatusDone {
		t.Fatalf("click Log in: exit %d\n%s", r.code, r.stdout)
	}
	// Proves the sign-in worked here, and again when the export replays.
	if r := s.do(id, `{"op":"assert","request":{"kind":"textContains","value":"Ada Lovelace"}}`); r.code != 0 || r.str("status") != sessions.StatusDone {
		t.Fatalf("assert signed in: exit %d\n%s", r.code, r.stdout)
	}
	found := s.run(sessionCmdOpts{}, "session", "describe", id, "--find", "Ada")
	if found.code != 0 || !strings.Contains(found.str("outline"), "Ada Lovelace") || strings.Contains(found.str("outline"), "Grace Hopper") {
		t.Fatalf("describe --find Ada: exit %d\n%s", found.code, found.stdout)
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "signin.json")
	exported, ops := s.exportTo(id, file)
	// The first URL's navigate, the two types, the click on Log in and the assert: not the
	// failed click.
	var password bytes.Buffer
	if len(ops) == 5 {
		_ = json.Compact(&password, ops[2])
	}
	if len(ops) != 5 || !strings.Contains(password.String(), `"text":{"env":"PORTAL_PASSWORD"}`) {
		t.Errorf("the export has %d operations (want 5, the password as {\"env\"}, the failed click left out):\n%s", len(ops), exported)
	}
	history, err := os.ReadFile(filepath.Join(s.sessionDir(id), "history.jsonl"))
	if err != nil || !strings.Contains(string(history), `{"env":"PORTAL_PASSWORD"}`) {
		t.Errorf("history.jsonl keeps the operation with {\"env\"} (%v):\n%s", err, history)
	}

	// The export replays on a fresh browser.
	runOut := filepath.Join(dir, "results")
	check := func(args []string, env ...string) (int, []byte) {
		cmd := exec.Command(s.bin, args...)
		cmd.Env = append(os.Environ(), env...)
		out, _ := cmd.CombinedOutput()
		s.mu.Lock()
		s.printed[strings.Join(args, " ")] = out
		s.mu.Unlock()
		return cmd.ProcessState.ExitCode(), out
	}
	if code, out := check([]string{"validate", file}); code != 0 {
		t.Errorf("validate the export: exit %d\n%s", code, out)
	}
	if code, out := check([]string{"run", "--out", runOut, file}, "PORTAL_PASSWORD="+sessionPassword); code != 0 {
		t.Errorf("run the export: exit %d\n%s", code, out)
	}
	for _, name := range []string{"report.json", "junit.xml", "report.html"} {
		if _, err := os.Stat(filepath.Join(runOut, name)); err != nil {
			t.Errorf("the run wrote no %s: %v", name, err)
		}
	}

	// The sweep, while the session (and its state) is still there.
	if n := sweepForSecret(t, sessionPassword, s.state, s.printed); n < 3 {
		t.Errorf("the state directory held %d files; want session.json, history.jsonl and an artifact at least", n)
	}
	if !hasArtifact(s.sessionDir(id)) {
		t.Errorf("no artifact (the describe --screenshot) under %s to sweep", s.sessionDir(id))
	}
	sweepForSecret(t, sessionPassword, runOut, map[string][]byte{file: exported})
}

// hasArtifact reports whether dir holds a file besides session.json and history.jsonl.
func hasArtifact(dir string) bool {
	found := false
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && info.Mode().IsRegular() && strings.HasSuffix(p, ".png") {
			found = true
		}
		return nil
	})
	return found
}
