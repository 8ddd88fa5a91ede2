package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// TestExportedSessionReplays: a session's history on the fixture's sign-in form, as the host
// records it (a literal username, an {"env"} password, a click that failed, a cookie banner
// click its when skipped, a click on Sign in whose when held, an assertion), exported and
// written, passes `fastbrowser validate` and `fastbrowser run` on a fresh browser with the
// variable set: the failed click is not in the file, the skipped one is skipped again with
// its skipReason, and the password is in no file the run wrote.
func TestExportedSessionReplays(t *testing.T) {
	const password = "S3ss10n-pw&<x>"
	site := runtimetest.Fixture()
	defer site.Close()
	form := site.URL + "/form"
	entry := func(i int, status, export string) sessions.Entry {
		e := sessions.Entry{Index: i, Operation: json.RawMessage(`{"given":"as typed"}`), Status: status, URLBefore: form, URLAfter: form}
		if export != "" {
			e.Export = json.RawMessage(export)
		}
		return e
	}
	signIn := entry(4, sessions.StatusDone, `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Sign in","exact":true}},"when":{"kind":"titleContains","value":"Sign in"}}`)
	signIn.URLAfter = site.URL + "/welcome"
	welcome := entry(5, sessions.StatusDone, `{"op":"assert","request":{"kind":"textContains","value":"Welcome, ada"}}`)
	welcome.URLBefore, welcome.URLAfter = signIn.URLAfter, signIn.URLAfter
	history := []sessions.Entry{
		entry(0, sessions.StatusDone, `{"op":"act","request":{"action":"type","target":{"role":"textbox","name":"Username","exact":true},"text":"ada"}}`),
		entry(1, sessions.StatusDone, `{"op":"act","request":{"action":"type","target":{"role":"password","name":"Password","exact":true},"text":{"env":"PORTAL_PASSWORD"}}}`),
		entry(2, sessions.StatusFailed, ""),
		entry(3, sessions.StatusSkipped, `{"op":"act","request":{"action":"click","target":{"role":"button","name":"Accept cookies","exact":true}},"when":{"kind":"count","value":"1","target":{"role":"button","name":"Accept cookies"}}}`),
		signIn, welcome,
	}
	rec := sessions.Record{ID: "k3y", Created: time.Now(), State: sessions.StateEnded,
		Options: sessions.Options{URL: form, AllowedOrigins: []string{site.URL}, Dir: t.TempDir()}}
	x, err := sessions.Export(rec, history, sessions.ExportOptions{ID: "signin"})
	if err != nil {
		t.Fatal(err)
	}
	if x.Operations != 6 || len(x.Warnings) != 0 {
		t.Fatalf("%d operations, warnings %q:\n%s", x.Operations, x.Warnings, x.File)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "signin.json")
	if err := os.WriteFile(file, x.File, 0o600); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, nil, "validate", file); res.code != 0 {
		t.Fatalf("validate: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	out := filepath.Join(dir, "results")
	res := runCLI(t, map[string]string{"PORTAL_PASSWORD": password}, "run", "--out", out, file)
	if res.code != 0 {
		t.Fatalf("run: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep scenario.Report
	if err := json.Unmarshal(raw, &rep); err != nil || len(rep.Scenarios) != 1 {
		t.Fatalf("%v: %s", err, raw)
	}
	s := rep.Scenarios[0]
	var got []string
	for _, op := range s.Operations {
		got = append(got, op.Op+":"+op.Status)
	}
	want := "navigate:passed act:passed act:passed act:skipped act:passed assert:passed"
	if s.Status != scenario.StatusPassed || strings.Join(got, " ") != want || s.Operations[3].SkipReason == "" {
		t.Fatalf("status %s, operations %s (want %s), skipReason %q", s.Status, strings.Join(got, " "), want, s.Operations[3].SkipReason)
	}
	for _, f := range []string{"report.json", "report.html", "junit.xml"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), password) || strings.Contains(string(data), "S3ss10n") {
			t.Errorf("%s holds the password", f)
		}
	}
	if strings.Contains(res.stdout+res.stderr+string(x.File), "S3ss10n") {
		t.Error("the password reached the CLI's output or the export")
	}
}
