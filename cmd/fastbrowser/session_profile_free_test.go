package main

import (
	"bufio"
	"net"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestSessionCloseFreesProfileBeforeAnswering: `session close --keep` answers once the
// session has ended with its profile freed (docs/sessions.md), so an open on the same
// profile right after it works, even while the host still has another connection to see
// out (here one that connected and never sent its request).
func TestSessionCloseFreesProfileBeforeAnswering(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	profile := t.TempDir()
	holder, _ := s.open(site.URL+"/form", "--profile", profile)

	idle, err := net.Dial("unix", filepath.Join(s.sessionDir(holder), "host.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if _, err := bufio.NewReader(idle).ReadBytes('\n'); err != nil { // the ready frame: accepted
		t.Fatal(err)
	}
	if r := s.run(sessionCmdOpts{}, "session", "close", "--keep", holder); r.code != 0 {
		t.Fatalf("close --keep: exit %d\n%s", r.code, r.stdout)
	}
	again := s.run(sessionCmdOpts{}, "session", "open", "--profile", profile, site.URL+"/form")
	if id := again.str("id"); id != "" {
		t.Cleanup(func() { s.run(sessionCmdOpts{}, "session", "close", id) })
	}
	again.want(t, "an open on the profile of the session just closed", 0, "")
}
