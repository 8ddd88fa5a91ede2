package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestReplayKeepOpen: `replay --keep-open --cdp-url` leaves the attached browser on the
// failing page (its context and tab still there) until Ctrl-C, then closes the context and
// tab it made and leaves the browser it does not own running.
func TestReplayKeepOpen(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	_, _, report := failedRun(t, dir, site.URL)

	b, c, cdpCtx := separateBrowser(t)
	pagesBefore := pageTargets(cdpCtx, t, c)

	bin, _ := runtimetest.Binary()
	stdout, stderr := &proctest.SyncBuffer{}, &proctest.SyncBuffer{}
	st := &state{stdin: bytes.NewReader(nil), stdout: stdout, stderr: stderr, workerPath: bin, lookupEnv: os.LookupEnv}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, st, []string{"fastbrowser", "replay", "--keep-open", "--cdp-url", b.WebSocketURL(),
			"--out", filepath.Join(dir, "replay"), report})
	}()
	if !proctest.PollUntil(60*time.Second, func() bool { return strings.Contains(stderr.String(), "press Ctrl-C to close it") }) {
		interrupt()
		t.Fatalf("replay never said it keeps the browser open\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}

	// While it waits: the replay's context and its tab, on the failing page, are still there.
	contexts, err := c.Target.GetBrowserContexts(cdpCtx)
	if err != nil {
		t.Fatal(err)
	}
	if len(contexts.BrowserContextIDs) != 1 {
		t.Fatalf("browser contexts while kept open: %v, want the replay's one", contexts.BrowserContextIDs)
	}
	onFailingPage := false
	ts, err := c.Target.GetTargets(cdpCtx, target.NewGetTargetsArgs())
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ts.TargetInfos {
		if in.Type == "page" && in.BrowserContextID != nil && *in.BrowserContextID == contexts.BrowserContextIDs[0] {
			onFailingPage = onFailingPage || in.URL == site.URL+"/form"
		}
	}
	if !onFailingPage {
		t.Fatalf("no tab of the replay's context is on %s/form: %+v", site.URL, ts.TargetInfos)
	}
	select {
	case code := <-exited:
		t.Fatalf("replay exited (%d) before Ctrl-C", code)
	default:
	}

	interrupt()
	var code int
	select {
	case code = <-exited:
	case <-time.After(30 * time.Second):
		t.Fatal("replay did not end within 30 s of Ctrl-C")
	}
	if code != 1 || !strings.Contains(stdout.String(), "reproduced: true") {
		t.Fatalf("replay exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !runtimetest.PidAlive(b.Pid()) {
		t.Fatal("the replay stopped a browser it does not own")
	}
	contexts, err = c.Target.GetBrowserContexts(cdpCtx)
	if err != nil {
		t.Fatal(err)
	}
	if len(contexts.BrowserContextIDs) != 0 {
		t.Fatalf("browser contexts left behind: %v", contexts.BrowserContextIDs)
	}
	if after := pageTargets(cdpCtx, t, c); after != pagesBefore {
		t.Fatalf("pages before the replay %d, after %d", pagesBefore, after)
	}
}

// TestReplayKeepOpenLaunched: `replay --keep-open` on a browser it launched (headless) says
// where to attach: the browser's token websocket, which answers this user and shows the
// failing page; Ctrl-C then ends the replay and the browser with it.
func TestReplayKeepOpenLaunched(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	_, _, report := failedRun(t, dir, site.URL)
	bin, _ := runtimetest.Binary()
	stdout, stderr := &proctest.SyncBuffer{}, &proctest.SyncBuffer{}
	st := &state{stdin: bytes.NewReader(nil), stdout: stdout, stderr: stderr, workerPath: bin, lookupEnv: os.LookupEnv}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	exited := make(chan int, 1)
	go func() {
		exited <- run(ctx, st, []string{"fastbrowser", "replay", "--keep-open", "--out", filepath.Join(dir, "replay"), report})
	}()
	if !proctest.PollUntil(60*time.Second, func() bool { return strings.Contains(stderr.String(), "press Ctrl-C to close it") }) {
		interrupt()
		t.Fatalf("replay never said it keeps the browser open\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	m := regexp.MustCompile(`attach DevTools at (ws://127\.0\.0\.1:\d+/devtools/browser/[0-9a-f]{64}) \(this user only\)`).FindStringSubmatch(stderr.String())
	if m == nil {
		interrupt()
		t.Fatalf("replay printed no token websocket to attach at:\n%s", stderr)
	}
	cdpCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := rpcc.DialContext(cdpCtx, m[1])
	if err != nil {
		interrupt()
		t.Fatalf("attaching at %s: %v", m[1], err)
	}
	ts, err := cdp.NewClient(conn).Target.GetTargets(cdpCtx, target.NewGetTargetsArgs())
	_ = conn.Close()
	if err != nil {
		interrupt()
		t.Fatal(err)
	}
	onFailingPage := false
	for _, in := range ts.TargetInfos {
		onFailingPage = onFailingPage || (in.Type == "page" && in.URL == site.URL+"/form")
	}
	if !onFailingPage {
		interrupt()
		t.Fatalf("no page on %s/form through the printed endpoint: %+v", site.URL, ts.TargetInfos)
	}
	interrupt()
	select {
	case code := <-exited:
		if code != 1 || !strings.Contains(stdout.String(), "reproduced: true") {
			t.Fatalf("replay exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("replay did not end within 30 s of Ctrl-C")
	}
}
