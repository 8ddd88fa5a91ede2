package main

import (
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionUnknownSubcommand: a session subcommand that does not exist is a usage error
// like any other of a session command: exit 2 and one JSON object on stdout, nothing else.
func TestSessionUnknownSubcommand(t *testing.T) {
	r := runCLI(t, map[string]string{"FASTBROWSER_STATE_DIR": t.TempDir()}, "session", "opne", "http://127.0.0.1:1/")
	obj := oneJSONObject(t, []string{"session", "opne"}, []byte(r.stdout))
	if errObj, _ := obj["error"].(map[string]any); r.code != 2 || errObj["code"] != sessions.CodeInvalidInput {
		t.Errorf("session opne: exit %d, stdout %q, stderr %q; want exit 2 and {\"error\":{\"code\":\"invalid_input\",…}}", r.code, r.stdout, r.stderr)
	}
}
