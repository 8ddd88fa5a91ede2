package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp/protocol/target"

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
