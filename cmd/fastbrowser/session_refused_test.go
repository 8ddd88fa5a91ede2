package main

import (
	"regexp"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestSessionRefusedIsThePagesOwn: `refused` speaks of the page a command leaves. A
// navigate to a page answered 403 is refused; a click that leaves it for a page that was
// served is not, and an assertion failing there does not end its message with the old
// page's refusal.
func TestSessionRefusedIsThePagesOwn(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	s := newSessionCLI(t)
	id, _ := s.open(site.URL + "/")

	nav := s.do(id, `{"op":"navigate","request":{"url":"`+site.URL+`/status/403"}}`)
	if nav.code != 0 || nav.str("refused", "message") == "" {
		t.Fatalf("navigate to /status/403: exit %d, want a refused page\n%s", nav.code, nav.stdout)
	}
	if r, _ := nav.obj["refused"].(map[string]any); r["status"] != float64(403) {
		t.Errorf("navigate to /status/403: refused %v, want status 403", r)
	}
	home := regexp.MustCompile(`link \[(e[0-9]+)\] "Home"`).FindStringSubmatch(nav.str("page", "outline"))
	if home == nil {
		t.Fatalf("no Home link on the 403 page:\n%s", nav.stdout)
	}
	click := s.do(id, `{"click":"`+home[1]+`"}`)
	if click.code != 0 || click.str("status") != sessions.StatusDone {
		t.Fatalf("click Home: exit %d\n%s", click.code, click.stdout)
	}
	if _, ok := click.obj["refused"]; ok {
		t.Errorf("the page the click led to (%s) was served, yet the result says refused:\n%s", click.str("page", "url"), click.stdout)
	}
	d := s.run(sessionCmdOpts{}, "session", "describe", id)
	if _, ok := d.obj["refused"]; ok || d.code != 0 {
		t.Errorf("describe of the served page: exit %d, refused present %v:\n%s", d.code, ok, d.stdout)
	}
}
