package main

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionProfileInUse is issue 12's acceptance 5: a --profile DIR held by one session
// refuses a second open with profile_in_use naming the holder and how to close it; once the holder is closed,
// an open on the same profile works.
func TestSessionProfileInUse(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	profile := t.TempDir()
	holder, _ := s.open(site.URL+"/form", "--profile", profile)

	second := s.run(sessionCmdOpts{}, "session", "open", "--profile", profile, site.URL+"/form")
	second.want(t, "a second open on the held profile", 1, sessions.CodeProfileInUse)
	if msg := second.str("error", "message"); !strings.Contains(msg, holder) || !strings.Contains(msg, "close") {
		t.Errorf("profile_in_use must name the session holding the profile (%s) and how to close it: %s", holder, second.stdout)
	}
	if id := second.str("id"); id != "" {
		s.run(sessionCmdOpts{}, "session", "close", id)
	}
	s.doRead(holder, "the refused open")

	if r := s.run(sessionCmdOpts{}, "session", "close", holder); r.code != 0 {
		t.Fatalf("close the holder: exit %d\n%s", r.code, r.stdout)
	}
	again, _ := s.open(site.URL+"/form", "--profile", profile)
	s.doRead(again, "an open on the freed profile")
}
