package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionArtifactsSharedRefused: `session open --artifacts DIR` with a shared (1777)
// DIR is refused with invalid_input naming it, and DIR keeps its mode: the store never
// chmods a directory it did not create.
func TestSessionArtifactsSharedRefused(t *testing.T) {
	s := newSessionCLI(t)
	shared := filepath.Join(t.TempDir(), "shared")
	mkdirMode(t, shared, 0o777|os.ModeSticky)
	r := s.run(sessionCmdOpts{}, "session", "open", "--artifacts", shared, "http://127.0.0.1:9/")
	if id := r.str("id"); id != "" {
		s.run(sessionCmdOpts{}, "session", "close", id)
	}
	r.want(t, "open with a shared --artifacts", 1, sessions.CodeInvalidInput)
	if msg := r.str("error", "message"); !strings.HasPrefix(msg, "--artifacts "+shared+": is a shared directory (mode 1777") {
		t.Errorf("message %q, want it to name %s as shared", msg, shared)
	}
	if fi, err := os.Lstat(shared); err != nil || fi.Mode() != os.ModeDir|os.ModeSticky|0o777 {
		t.Errorf("%s: mode %v (%v), want drwxrwxrwt unchanged", shared, fi.Mode(), err)
	}
}
