package runtime_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// keepSite sets a persistent cookie and a localStorage entry (/set), and shows what a page
// finds of both (/get): the cookie as the server received it, the entry as the page reads it.
func keepSite() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "keep", Value: "kept", Path: "/", MaxAge: 3600})
		fmt.Fprint(w, `<!doctype html><title>set</title><p>set</p><script>localStorage.setItem("keep", "kept")</script>`)
	})
	mux.HandleFunc("/get", func(w http.ResponseWriter, r *http.Request) {
		cookie := "none"
		if c, err := r.Cookie("keep"); err == nil {
			cookie = c.Value
		}
		fmt.Fprintf(w, `<!doctype html><title>get</title><p>cookie: %s</p><p id="s"></p>`+
			`<script>document.getElementById("s").textContent = "storage: " + (localStorage.getItem("keep") || "none")</script>`, cookie)
	})
	return httptest.NewServer(mux)
}

// tempProfiles is every temporary profile under the temp directory.
func tempProfiles(t *testing.T) map[string]bool {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "fastbrowser-profile-*"))
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]bool{}
	for _, p := range m {
		set[p] = true
	}
	return set
}

// TestProfilePersists: a session over a persistent profile keeps what a page stored there
// (a cookie, a localStorage entry) for the next session over it, the directory outlives the
// session, and no temporary profile is made for it. Not parallel: no other test's browser
// may make a temporary profile while it counts them.
func TestProfilePersists(t *testing.T) {
	site := keepSite()
	defer site.Close()
	// The upstream proxy sees whether the default context's traffic goes through the
	// egress proxy, which only the browser's command line can set.
	up := runtimetest.NewUpstream()
	defer up.Close()
	dir := filepath.Join(t.TempDir(), "profile") // missing: the launch creates it
	before := tempProfiles(t)
	open := func() *runtime.Runtime {
		return runtimetest.OpenWith(t, runtime.Options{Profile: dir, AllowedOrigins: []string{site.URL}, UpstreamProxy: up.URL})
	}

	rt := open()
	if rt.ProfileDir() != "" {
		t.Errorf("ProfileDir() = %q for a persistent profile: a killed session's cleaner would remove it", rt.ProfileDir())
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(rt.BrowserPid()) + "/cmdline")
	if err != nil || !strings.Contains(string(cmdline), "--user-data-dir="+dir+"\x00") {
		t.Fatalf("the browser does not run on the profile (%v): %q", err, cmdline)
	}
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/set"}); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(up.Seen(), func(r runtimetest.UpstreamRequest) bool { return r.Target == site.URL+"/set" }) {
		t.Fatalf("the page did not go through the egress proxy to the upstream: %+v", up.Seen())
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the profile after the session: %v, %v", fi, err)
	}

	rt = open()
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/get"}); err != nil {
		t.Fatal(err)
	}
	rd, err := transport.Dispatch(bg, rt, transport.Read{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rd.Text, "cookie: kept") || !strings.Contains(rd.Text, "storage: kept") {
		t.Fatalf("the second session did not find what the first stored: %q", rd.Text)
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	for p := range tempProfiles(t) {
		if !before[p] {
			t.Errorf("a temporary profile was made: %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "Default", "Preferences")); err != nil {
		t.Fatalf("the profile lost its preferences: %v", err)
	}
}

// TestProfileHeldExclusively: a second session over a profile a live session holds fails
// launch_failed saying so, and the first session goes on.
func TestProfileHeldExclusively(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := runtimetest.OpenWith(t, runtime.Options{Profile: dir})
	bin, err := runtimetest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	second, err := runtime.Open(bg, runtime.Options{Profile: dir, WorkerPath: bin, WorkerArgs: []string{"worker"}})
	if err == nil {
		_ = second.Close()
		t.Fatal("a second session opened over a profile another browser holds")
	}
	oe := transport.AsOperationError("", err)
	if oe.Code != transport.CodeLaunchFailed || !strings.Contains(oe.Message, "in use by another Chromium") {
		t.Fatalf("second session: %v", err)
	}
	if _, err := transport.Dispatch(bg, first, transport.ListTabs{}); err != nil {
		t.Fatalf("the first session after the refused second: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the refused launch touched the profile: %v", err)
	}
}

// TestProfileRefused: a profile the session cannot hold is invalid_request on "profile",
// before any browser starts.
func TestProfileRefused(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		opts runtime.Options
		want string
	}{
		{"attached", runtime.Options{Profile: t.TempDir(), CDPURL: "ws://127.0.0.1:1/devtools/browser/x"}, "needs a browser fastbrowser launches"},
		{"allocator", runtime.Options{Profile: t.TempDir(), Allocator: runtime.NewAttachAllocator("ws://127.0.0.1:1/devtools/browser/x")}, "an Allocator's browser is shared"},
		{"relative", runtime.Options{Profile: "profile"}, "expected an absolute directory path"},
		{"file", runtime.Options{Profile: file}, "expected a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) { openInvalid(t, tt.opts, "profile", tt.want) })
	}
}

// TestProfileAfterKill: a session whose browser was killed (as when its process dies)
// leaves the profile usable: the next session over it opens and keeps working.
func TestProfileAfterKill(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	site := keepSite()
	defer site.Close()
	rt := runtimetest.OpenWith(t, runtime.Options{Profile: dir})
	if err := syscall.Kill(rt.BrowserPid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-rt.BrowserDone()
	_ = rt.Close() // the dead browser's own teardown
	rt = runtimetest.OpenWith(t, runtime.Options{Profile: dir})
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/get"}); err != nil {
		t.Fatalf("a session over the profile of a killed browser: %v", err)
	}
}

// openInvalid opens a session with opts, which must be refused invalid_request on path with
// a message containing want; it returns the error.
func openInvalid(t *testing.T, opts runtime.Options, path, want string) error {
	t.Helper()
	rt, err := runtime.Open(bg, opts)
	if err == nil {
		_ = rt.Close()
		t.Fatal("opened")
	}
	var oe *transport.OperationError
	if !errors.As(err, &oe) || oe.Code != transport.CodeInvalidRequest || oe.Path != path || !strings.Contains(oe.Message, want) {
		t.Fatalf("got %v, want invalid_request on %s saying %q", err, path, want)
	}
	return err
}
