package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionDoWait: `session do` reads {"op":"wait",…} like any file operation: a load state
// and a URL wait are done (result: the document they ended on), one that runs out of its
// timeoutMs failed with cause timeout (the session stays usable), one naming two things is
// refused before it runs with the field's path, and the export keeps the waits that were done.
func TestSessionDoWait(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/wait-states")

	idle := s.do(id, `{"op":"wait","request":{"loadState":"networkidle"}}`)
	if idle.code != 0 || idle.str("status") != sessions.StatusDone || idle.str("op") != "wait" || idle.str("result", "url") != site.URL+"/wait-states" {
		t.Fatalf("wait networkidle: exit %d\n%s", idle.code, idle.stdout)
	}
	if !strings.Contains(idle.str("page", "outline"), "Fetched after load") {
		t.Errorf("the page after networkidle lacks the text fetched after load:\n%s", idle.stdout)
	}
	if u := s.do(id, `{"op":"wait","request":{"url":"**/wait-states"}}`); u.code != 0 || u.str("status") != sessions.StatusDone {
		t.Errorf("wait url: exit %d\n%s", u.code, u.stdout)
	}
	late := s.do(id, `{"op":"wait","request":{"url":"**/never","timeoutMs":300}}`)
	if late.code != 1 || late.str("status") != sessions.StatusFailed || late.str("error", "cause") != "timeout" || !strings.Contains(late.str("error", "message"), `"**/never"`) {
		t.Errorf("wait for a URL that never comes: exit %d\n%s", late.code, late.stdout)
	}
	two := s.do(id, `{"op":"wait","request":{"loadState":"load","durationMs":5}}`)
	two.want(t, "wait for two things", 1, sessions.CodeInvalidInput)
	if two.str("error", "path") != "request.durationMs" {
		t.Errorf("wait for two things: path %q\n%s", two.str("error", "path"), two.stdout)
	}
	s.doRead(id, "the waits")

	exported, _ := s.exportTo(id, filepath.Join(t.TempDir(), "waits.json"))
	if n := strings.Count(string(exported), `"op": "wait"`) + strings.Count(string(exported), `"op":"wait"`); n != 2 {
		t.Errorf("the export holds %d waits, want the 2 that were done:\n%s", n, exported)
	}
}
