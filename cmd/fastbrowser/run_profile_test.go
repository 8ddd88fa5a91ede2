package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario/sessions"
)

// profileSite serves /held, a page that says "released" only once the test releases it: its
// script fetches /hold, which answers then (held reports the first request). The page itself
// loads at once, so the run waits in its assertion (budget up to 120 s), not in a navigation
// whose budget is 10 s. It counts every request it gets.
type profileSite struct {
	*httptest.Server
	hits     atomic.Int64
	held     chan struct{} // closed at the first request to /held
	release  chan struct{} // the test closes it to let /held answer
	heldOnce sync.Once
}

func newProfileSite(t *testing.T) *profileSite {
	t.Helper()
	s := &profileSite{held: make(chan struct{}), release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/held":
			fmt.Fprint(w, `<!doctype html><title>/held</title><p id=out>held</p><script>fetch("/hold").then(r => r.text()).then(t => { document.getElementById("out").textContent = t })</script>`)
			return
		case "/hold":
			s.heldOnce.Do(func() { close(s.held) })
			select {
			case <-s.release:
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, "released")
			return
		}
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>released</p>", r.URL.Path)
	}))
	t.Cleanup(s.Close)
	t.Cleanup(s.let) // a failing test must not leave the handler holding the server's Close
	return s
}

func (s *profileSite) let() {
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

// profileScenario writes a scenario that navigates to path on site and asserts the page.
func profileScenario(t *testing.T, dir, site, path string) string {
	return writeScenario(t, dir, "profile.json", fmt.Sprintf(`{"version":1,"id":"on-profile","fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":%q}},{"op":"assert","timeoutMs":120000,"request":{"kind":"textContains","value":"released"}}]}`, site, path))
}

// TestSessionRefusedOnRunProfile is seed 004's "a session cannot open on a profile a running
// step uses": while `fastbrowser run --profile DIR` (its own process) is inside a scenario,
// `session open --profile DIR` fails profile_in_use naming the run by its pid. Released,
// the run passes, leaves DIR in place (the user's) and frees it: a session opens on it.
func TestSessionRefusedOnRunProfile(t *testing.T) {
	site := newProfileSite(t)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	f := profileScenario(t, dir, site.URL, "/held")
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	run := exec.Command(bin, "run", "--profile", profile, "--out", filepath.Join(dir, "out"), f)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	run.WaitDelay = sessionEndLimit // its output pipes close with the processes it started
	exited := make(chan struct{})
	go func() { _ = run.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = run.Process.Kill()
			<-exited
		}
	})
	select {
	case <-site.held: // the run's browser, on the profile, is loading /held
	case <-exited:
		t.Fatalf("the run ended (exit %d) before it loaded /held\nstdout:\n%s\nstderr:\n%s", run.ProcessState.ExitCode(), stdout.String(), stderr.String())
	case <-time.After(sessionEndLimit):
		t.Fatalf("the run did not load /held within %s", sessionEndLimit)
	}

	s := newSessionCLI(t)
	r := s.run(sessionCmdOpts{}, "session", "open", "--profile", profile, site.URL+"/open")
	r.want(t, "session open on the running run's profile", 1, sessions.CodeProfileInUse)
	want := fmt.Sprintf("the profile %s is in use by fastbrowser run (pid %d); wait for it to finish", profile, run.Process.Pid)
	if msg := r.str("error", "message"); msg != want {
		t.Errorf("message = %q\nwant      %q", msg, want)
	}

	site.let()
	select {
	case <-exited:
	case <-time.After(sessionEndLimit):
		t.Fatalf("the run did not end within %s after /held answered", sessionEndLimit)
	}
	if code := run.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("run exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(profile, "Local State")); err != nil {
		t.Errorf("the profile the run used is not a Chromium profile left in place: %v", err)
	}
	id, _ := s.open(site.URL+"/open", "--profile", profile)
	s.doRead(id, "an open on the profile the finished run freed")
}

// TestRunRefusedOnSessionProfile is seed 004's "a browser step naming that profile fails at
// once, naming the session and how to close it": `run --profile DIR` while a session holds
// DIR exits 2 with that message, before anything starts (no out dir, no request to the
// site). Once the session is ended as the message says, the same run passes.
func TestRunRefusedOnSessionProfile(t *testing.T) {
	site := newProfileSite(t)
	site.let() // nothing is held here
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	f := profileScenario(t, dir, site.URL, "/page")
	s := newSessionCLI(t)
	id, _ := s.open(site.URL+"/open", "--profile", profile)
	before := site.hits.Load()

	out := filepath.Join(dir, "out")
	res := runCLI(t, nil, "run", "--profile", profile, "--out", out, f)
	want := fmt.Sprintf(`fastbrowser: --profile %s: the profile is held by session %s; end it with "fastbrowser session close %s --keep" (or close it)`+"\n", profile, id, id)
	if res.code != 2 || res.stderr != want {
		t.Fatalf("run on a held profile: exit %d, stderr %q\nwant exit 2, stderr %q", res.code, res.stderr, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the refused run made its out dir (%v)", err)
	}
	if n := site.hits.Load() - before; n != 0 {
		t.Errorf("the refused run sent %d requests to the site", n)
	}

	if r := s.run(sessionCmdOpts{}, "session", "close", id, "--keep"); r.code != 0 {
		t.Fatalf("session close --keep: exit %d\n%s", r.code, r.stdout)
	}
	if res := runCLI(t, nil, "run", "--profile", profile, "--out", out, f); res.code != 0 {
		t.Fatalf("run after the session ended: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestRunProfileRefusals: --profile is one browser at a time on a browser fastbrowser
// launches; --jobs over 1 and --cdp-url are refused before anything starts.
func TestRunProfileRefusals(t *testing.T) {
	dir := t.TempDir()
	f := profileScenario(t, dir, "http://127.0.0.1:9", "/")
	profile := filepath.Join(dir, "profile")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--jobs", "2"}, "fastbrowser: --profile with --jobs 2: one browser profile serves one browser at a time; use --jobs 1 (the default with --profile)\n"},
		{[]string{"--cdp-url", "http://127.0.0.1:9"}, "fastbrowser: --profile needs a browser fastbrowser launches; it does not go with --cdp-url\n"},
	} {
		res := runCLI(t, nil, append(append([]string{"run", "--profile", profile, "--out", filepath.Join(dir, "out")}, c.args...), f)...)
		if res.code != 2 || res.stderr != c.want {
			t.Errorf("%v: exit %d, stderr %q; want exit 2, %q", c.args, res.code, res.stderr, c.want)
		}
	}
	if _, err := os.Stat(profile); !os.IsNotExist(err) {
		t.Errorf("a refused run made the profile directory (%v)", err)
	}
}

// TestRunProfileKeepsStateAcrossScenarios: every scenario of `run --profile` runs on that
// profile, one browser after the other (two files, the default --jobs): a cookie the first
// scenario's page set is sent by the second's browser, which a fresh profile per scenario,
// or two browsers on the profile at once, would not do.
func TestRunProfileKeepsStateAcrossScenarios(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/set" {
			http.SetCookie(w, &http.Cookie{Name: "kept", Value: "yes", Path: "/", MaxAge: 3600})
		}
		c, err := r.Cookie("kept")
		seen := "none"
		if err == nil {
			seen = c.Value
		}
		fmt.Fprintf(w, "<!doctype html><title>%s</title><p>cookie: %s</p>", r.URL.Path, seen)
	}))
	defer site.Close()
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	scenario := func(name, id, path, text string) {
		writeScenario(t, dir, name, fmt.Sprintf(`{"version":1,"id":%q,"fixture":{"baseUrl":%q},
  "operations":[{"op":"navigate","request":{"url":%q}},{"op":"assert","request":{"kind":"textContains","value":%q}}]}`, id, site.URL, path, text))
	}
	scenario("a.json", "sets", "/set", "cookie: none")
	scenario("b.json", "reads", "/get", "cookie: yes")
	res := runCLI(t, nil, "run", "--profile", profile, "--out", filepath.Join(dir, "out"), filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"))
	if res.code != 0 || !strings.Contains(res.stdout, "2 passed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}
