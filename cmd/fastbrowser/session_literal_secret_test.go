package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// Once a value is a secret of the session, an operation that writes it out as a literal is
// refused: operations are recorded and exported as written, so the value would reach the
// history and the export.
func TestSessionRefusesASecretWrittenAsALiteral(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/form")
	const secret = "correct-horse-42"
	typed := s.run(sessionCmdOpts{stdin: `{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":{"env":"PORTAL_PASSWORD"}}}`,
		env: []string{"PORTAL_PASSWORD=" + secret}}, "session", "do", id)
	if typed.code != 0 {
		t.Fatalf("typing the secret: exit %d: %s", typed.code, typed.stdout)
	}
	for _, op := range []string{
		`{"op":"assert","request":{"kind":"value","value":"` + secret + `","target":{"role":"textbox","name":"Username"}}}`,
		`{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":"` + secret + `"}}`,
		`{"op":"read","when":{"kind":"textContains","value":"` + secret + `"}}`,
	} {
		r := s.do(id, op)
		if r.code != 1 || r.errorCode() != sessions.CodeInvalidInput {
			t.Errorf("%s: exit %d, %s; want invalid_input", op, r.code, r.stdout)
		}
	}
	s.doRead(id, "the refusals")
	if b, err := os.ReadFile(filepath.Join(s.sessionDir(id), "history.jsonl")); err != nil || strings.Contains(string(b), secret) {
		t.Fatalf("history holds the secret (or cannot be read: %v)", err)
	}
}
