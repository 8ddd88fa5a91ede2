package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// traceScenario writes a scenario on the fixture's echo page (which echoes what is typed into
// its text, title, URL and console): it types a secret into the text field and the password
// field, asserts the origin (a read-only step that passes at its first look: not captured
// again), then asserts a title; failing makes that assertion fail.
func traceScenario(t *testing.T, dir, siteURL string, failing bool) string {
	t.Helper()
	title := "Echo"
	if failing {
		title = "Dashboard"
	}
	return writeScenario(t, dir, "trace.json", fmt.Sprintf(`{
  "version": 1, "id": "trace-echo",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/echo"}},
    {"id": "token", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Token"}, "text": {"env": "PORTAL_TOKEN"}}},
    {"id": "password", "op": "act", "request": {"action": "type", "target": {"role": "textbox", "name": "Password"}, "text": {"env": "PORTAL_TOKEN"}}},
    {"id": "origin", "op": "assert", "request": {"kind": "origin", "value": %q, "wait": "none"}},
    {"id": "title", "op": "assert", "request": {"kind": "titleContains", "value": %q, "wait": "none"}}
  ]}`, siteURL, siteURL+"/health", siteURL, title))
}

// traceDirs lists the trace directories (<runId>.trace) under out's artifacts.
func traceDirs(t *testing.T, out string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "artifacts", "*", "*.trace"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestTraceOnFailureByDefault: a failing scenario run without --trace keeps a trace of one
// step per operation that ran; each step's screenshot file exists, is 0600, and the step
// after the password was typed proves the password field was masked. The passed origin
// assertion is not captured again: it has no picture or outline of its own, names the step
// whose picture stands for it, and keeps its console and network summaries. The failed
// step (a read-only assert too) has its picture: its parts are its failure evidence, not a
// second capture. No secret reaches any file, and
// report.html's timeline and filmstrip reference only files that exist.
func TestTraceOnFailureByDefault(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := traceScenario(t, dir, site.URL, true)
	out := filepath.Join(dir, "out")
	res := runCLI(t, map[string]string{"PORTAL_TOKEN": leakSecret}, "run", "--out", out, f)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	sr := r.Scenarios[0]
	if len(sr.Trace) != 5 {
		t.Fatalf("trace has %d steps, want 5 (one per operation): %+v", len(sr.Trace), sr.Trace)
	}
	for i, st := range sr.Trace {
		if st.Index != i || st.Op != sr.Operations[i].Op || st.Status != sr.Operations[i].Status || st.DurationMs != sr.Operations[i].DurationMs {
			t.Errorf("step %d = %+v, its operation %+v", i, st, sr.Operations[i])
		}
		if i > 0 && st.StartMs < sr.Trace[i-1].StartMs+sr.Trace[i-1].DurationMs {
			t.Errorf("step %d starts at %d ms, before step %d ended", i, st.StartMs, i-1)
		}
		if i == 3 {
			if st.Screenshot != nil || st.Outline != nil || st.SameAs == nil || *st.SameAs != 2 ||
				!strings.Contains(st.ScreenshotUnavailable, "does not change the page") || st.Console == nil || st.Network == nil {
				t.Fatalf("the passed origin assertion was captured, or names no step standing for it: %+v", st)
			}
			continue
		}
		if st.Screenshot == nil {
			t.Fatalf("step %d kept no screenshot: %q", i, st.ScreenshotUnavailable)
		}
		if st.Console == nil || st.Network == nil || st.Outline == nil || st.SameAs != nil {
			t.Fatalf("step %d lacks a part: %+v", i, st)
		}
		for _, a := range []string{st.Screenshot.Path, st.Console.Path, st.Network.Path, st.Outline.Path} {
			fi, err := os.Stat(filepath.Join(out, "artifacts", a))
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("step %d file %s: %v %v", i, a, fi, err)
			}
		}
	}
	pw := sr.Trace[2].Redaction
	if pw == nil || !pw.Proven || !slices.Contains(pw.Rules, "password") || pw.Masked < 1 || pw.Unmasked != 0 {
		t.Errorf("the step after typing the password proves no masking of it: %+v", pw)
	}
	failed := sr.Trace[4]
	if !failed.FromEvidence || failed.Redaction != nil {
		t.Errorf("the failed step is not its failure evidence: %+v", failed)
	}
	var evidenceShot string
	for _, m := range sr.Operations[4].Evidence {
		if m.Kind == "screenshot" {
			evidenceShot = m.Path
		}
	}
	if failed.Screenshot.Path != evidenceShot {
		t.Errorf("the failed step's screenshot %s is not its evidence's %s", failed.Screenshot.Path, evidenceShot)
	}
	if d := traceDirs(t, out); len(d) != 1 {
		t.Errorf("trace directories %v, want one", d)
	}

	page, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`class="timeline"`, `class="filmstrip"`, `class="trace-step"`, `img-src data: 'self'`, `= #2`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %s", want)
		}
	}
	srcs := regexp.MustCompile(`src="(artifacts/[^"]+\.png)"`).FindAllStringSubmatch(string(page), -1)
	if len(srcs) < 4 {
		t.Fatalf("report.html references %d trace pictures, want at least 4", len(srcs))
	}
	for _, m := range srcs {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("report.html references %s: %v", m[1], err)
		}
	}
	sweepForSecret(t, leakSecret, out, map[string][]byte{"stdout": []byte(res.stdout), "stderr": []byte(res.stderr)})

	// Opened in Chromium from a server of the out directory, the page asks for nothing but
	// itself and files of its artifacts directory, each of which exists.
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	got, requested := loadInChromium(t, srv.URL+"/report.html")
	if !strings.Contains(got.Text, "#4 assert") || !strings.Contains(got.Text, "started +") {
		t.Errorf("the page does not show the trace:\n%s", got.Text)
	}
	for _, u := range requested {
		if u != srv.URL+"/report.html" && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, srv.URL+"/artifacts/") {
			t.Errorf("the page requested %s", u)
		}
	}
}

// TestTraceModes: under the default on-failure a passing scenario keeps nothing (no trace on
// the report, no trace file on disk); --trace on keeps a passing one; --trace off records
// none for a failing one; fastbrowser.json's trace applies when the flag is not given, and
// the flag wins over it; a bad mode is a usage error.
func TestTraceModes(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	env := map[string]string{"PORTAL_TOKEN": leakSecret}
	run := func(failing bool, config string, args ...string) (scenario.ScenarioReport, string) {
		t.Helper()
		dir := t.TempDir()
		f := traceScenario(t, dir, site.URL, failing)
		if config != "" {
			writeScenario(t, dir, "fastbrowser.json", config)
		}
		out := filepath.Join(dir, "out")
		res := runCLI(t, env, append(append([]string{"run", "--out", out}, args...), f)...)
		want := 0
		if failing {
			want = 1
		}
		if res.code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, res.code, want, res.stdout, res.stderr)
		}
		return readReport(t, filepath.Join(out, "report.json")).Scenarios[0], out
	}

	sr, out := run(false, "")
	if sr.Trace != nil || len(traceDirs(t, out)) != 0 {
		t.Errorf("on-failure kept the trace of a passing scenario: %+v %v", sr.Trace, traceDirs(t, out))
	}
	sr, out = run(false, "", "--trace", "on")
	if len(sr.Trace) != 5 || sr.Trace[2].Screenshot == nil || len(traceDirs(t, out)) != 1 {
		t.Fatalf("--trace on kept %d steps, dirs %v", len(sr.Trace), traceDirs(t, out))
	}
	// --trace on does not capture again after the passed assertions either.
	for _, st := range sr.Trace[3:] {
		if st.Screenshot != nil || st.SameAs == nil || *st.SameAs != 2 || st.Console == nil {
			t.Errorf("--trace on: a passed assertion's step %+v, want no picture, sameAs 2 and its console", st)
		}
	}
	sr, out = run(true, "", "--trace", "off")
	if sr.Trace != nil || len(traceDirs(t, out)) != 0 {
		t.Errorf("--trace off recorded a trace: %+v %v", sr.Trace, traceDirs(t, out))
	}
	sr, _ = run(false, `{"version": 1, "trace": "on"}`)
	if len(sr.Trace) != 5 {
		t.Errorf("config trace on kept %d steps", len(sr.Trace))
	}
	sr, _ = run(false, `{"version": 1, "trace": "on"}`, "--trace", "on-failure")
	if sr.Trace != nil {
		t.Errorf("--trace on-failure did not win over the config's on")
	}
	res := runCLI(t, env, "run", "--trace", "sometimes", "--out", filepath.Join(t.TempDir(), "o"), traceScenario(t, t.TempDir(), site.URL, false))
	if res.code != 2 || !strings.Contains(res.stderr, "--trace") {
		t.Errorf("--trace sometimes: exit %d\n%s", res.code, res.stderr)
	}
}

// TestTraceRetries: with --retries 1, retain-on-failure keeps the trace of a flaky
// scenario's failed first attempt (and not of the attempt that passed); on-failure keeps
// nothing of it (its final result passed), and of an always-failing scenario only the last
// attempt's trace.
func TestTraceRetries(t *testing.T) {
	run := func(mode, want string) (scenario.ScenarioReport, []string) {
		t.Helper()
		dir := t.TempDir()
		warm := filepath.Join(dir, "warm")
		f := retryScenario(t, dir, "warms-up", retrySite(t, warm), warm, want)
		out := filepath.Join(dir, "out")
		res := runCLI(t, nil, "run", "--retries", "1", "--trace", mode, "--out", out, f)
		if res.code != 0 && res.code != 1 {
			t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
		}
		var names []string
		for _, d := range traceDirs(t, out) {
			names = append(names, filepath.Base(d))
		}
		return readReport(t, filepath.Join(out, "report.json")).Scenarios[0], names
	}

	sr, dirs := run("retain-on-failure", "Ready")
	if sr.Status != "flaky" || len(sr.Attempts) != 2 {
		t.Fatalf("status %s, %d attempts", sr.Status, len(sr.Attempts))
	}
	first := sr.Attempts[0].Trace
	if len(first) != 2 || first[1].Status != "failed" || !first[1].FromEvidence || sr.Attempts[1].Trace != nil || sr.Trace != nil {
		t.Errorf("retain-on-failure: first attempt's trace %+v, second's %+v, scenario's %+v", first, sr.Attempts[1].Trace, sr.Trace)
	}
	if len(dirs) != 1 || strings.Contains(dirs[0], "attempt") {
		t.Errorf("retain-on-failure: trace directories %v, want the first attempt's", dirs)
	}

	sr, dirs = run("on-failure", "Ready")
	if sr.Status != "flaky" || sr.Attempts[0].Trace != nil || sr.Trace != nil || len(dirs) != 0 {
		t.Errorf("on-failure kept a trace of a flaky scenario: %+v, dirs %v", sr.Attempts[0].Trace, dirs)
	}

	sr, dirs = run("on-failure", "Never")
	if sr.Status != "failed" || sr.Attempts[0].Trace != nil || len(sr.Trace) != 2 || len(sr.Attempts[1].Trace) != 2 {
		t.Errorf("on-failure, always failing: first attempt %+v, scenario %+v", sr.Attempts[0].Trace, sr.Trace)
	}
	if len(dirs) != 1 || !strings.HasSuffix(dirs[0], ".attempt-2.trace") {
		t.Errorf("on-failure, always failing: trace directories %v, want the last attempt's", dirs)
	}
}
