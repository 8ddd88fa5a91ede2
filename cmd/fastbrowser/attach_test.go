package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// TestAttachRunsQuickstartLeavingNothing is the CI runner's acceptance 5: a Chromium started
// on its own with a remote debugging port runs the quick-start scenarios through --cdp-url
// (its http endpoint, as a remote browser service gives it), stays running, and is left with
// no browser context and no tab the run created.
func TestAttachRunsQuickstartLeavingNothing(t *testing.T) {
	b, c, ctx := separateBrowser(t)
	targetsBefore := pageTargets(ctx, t, c)

	out := filepath.Join(t.TempDir(), "results")
	res := runCLI(t, quickstartEnv, "run", "--cdp-url", b.HTTPURL(), "--out", out, "../../scenarios/quickstart")
	if res.code != 0 || !strings.Contains(res.stdout, quickstartPassed) {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !runtimetest.PidAlive(b.Pid()) {
		t.Fatal("the run stopped a browser it does not own")
	}
	contexts, err := c.Target.GetBrowserContexts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(contexts.BrowserContextIDs) != 0 {
		t.Fatalf("browser contexts left behind: %v", contexts.BrowserContextIDs)
	}
	if after := pageTargets(ctx, t, c); after != targetsBefore {
		t.Fatalf("pages before the run %d, after %d", targetsBefore, after)
	}
}

// separateBrowser is a Chromium started apart from the CLI, as a remote browser service
// would run it, with a CDP client on it; both end with the test. ctx bounds the test's own
// CDP calls.
func separateBrowser(t *testing.T) (*chromium.Browser, *cdp.Client, context.Context) {
	t.Helper()
	b, err := chromium.Launch(context.Background(), chromium.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	conn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return b, cdp.NewClient(conn), ctx
}

func pageTargets(ctx context.Context, t *testing.T, c *cdp.Client) int {
	t.Helper()
	ts, err := c.Target.GetTargets(ctx, target.NewGetTargetsArgs())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, in := range ts.TargetInfos {
		if in.Type == "page" {
			n++
		}
	}
	return n
}
