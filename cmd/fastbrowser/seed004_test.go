package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// seed004Replays is how many times the export is replayed: all of them must pass.
const seed004Replays = 10

// TestSeed004SignInThenSlowPageReplays is seed 004's acceptance line: the export of a
// session that signs in to the shop (navigate to the sign-in page, type the user and the
// password, click "Log in") and then navigates to the slow page replays 10 of 10. Before act
// waited for the navigation its click started, the click returned while the sign-in POST
// was still to start or finish, and the navigate after it failed net::ERR_ABORTED (or
// landed on the sign-in page, the cookie not yet set) in some replays.
func TestSeed004SignInThenSlowPageReplays(t *testing.T) {
	base := shopServer(t, sessionPassword)
	s := newSessionCLI(t)
	id, _ := s.open(base + "/shop/login")
	steps := []struct {
		op  string
		env []string
	}{
		{op: fmt.Sprintf(`{"op":"navigate","request":{"url":%q}}`, base+"/shop/login")},
		{op: `{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username"},"text":"alice"}}`},
		{op: `{"op":"act","request":{"action":"type","target":{"role":"password","name":"Password"},"text":{"env":"PORTAL_PASSWORD"}}}`,
			env: []string{"PORTAL_PASSWORD=" + sessionPassword}},
		{op: `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Log in"}}}`},
		{op: fmt.Sprintf(`{"op":"navigate","request":{"url":%q}}`, base+"/shop/slow")},
		// The slow page shows only to a signed-in browser (else it redirects to sign in).
		{op: `{"op":"assert","request":{"kind":"title","value":"Sales report"}}`},
	}
	for _, st := range steps {
		r := s.run(sessionCmdOpts{stdin: st.op, env: st.env}, "session", "do", id)
		if r.code != 0 || r.str("status") != sessions.StatusDone {
			t.Fatalf("do %s: exit %d\n%s", st.op, r.code, r.stdout)
		}
	}
	dir := t.TempDir()
	exported, ops := s.exportTo(id, filepath.Join(dir, "seed004.json"))
	// open's own navigate, then the session's six operations.
	if len(ops) != 7 {
		t.Fatalf("the export has %d operations, want 7:\n%s", len(ops), exported)
	}
	var file map[string]any
	if err := json.Unmarshal(exported, &file); err != nil {
		t.Fatal(err)
	}
	var files []string
	for i := range seed004Replays {
		file["id"] = fmt.Sprintf("seed004-%02d", i)
		b, err := json.Marshal(file)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("seed004-%02d.json", i))
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out := filepath.Join(dir, "results")
	res := runCLI(t, map[string]string{"PORTAL_PASSWORD": sessionPassword}, append([]string{"run", "--jobs", "2", "--out", out}, files...)...)
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("run: exit %d, no report (%v)\n%s%s", res.code, err, res.stdout, res.stderr)
	}
	var rep scenario.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	passed := 0
	var failed []string
	for _, sc := range rep.Scenarios {
		if sc.Status == scenario.StatusPassed {
			passed++
			continue
		}
		var why []string
		for _, op := range sc.Operations {
			if op.Status != scenario.StatusPassed {
				why = append(why, fmt.Sprintf("%s:%s %s", op.Op, op.Status, op.Error))
			}
		}
		failed = append(failed, sc.ID+" "+strings.Join(why, "; "))
	}
	if passed != seed004Replays || res.code != 0 {
		t.Fatalf("%d of %d replays passed (exit %d):\n%s", passed, seed004Replays, res.code, strings.Join(failed, "\n"))
	}
}
