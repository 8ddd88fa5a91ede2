package main

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestSessionOpenPrintsOutlineUnescaped: open prints its outline as every session command
// does, without HTML escaping (an outline's "->", "<" and "&" stay as they are).
func TestSessionOpenPrintsOutlineUnescaped(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	_, open := s.open(site.URL + "/form")
	if !strings.Contains(open.stdout, `"Forgot password?\" -> /about`) || strings.Contains(open.stdout, `\u003e`) {
		t.Errorf("open's outline is HTML-escaped, unlike the other commands':\n%s", open.stdout)
	}
}
