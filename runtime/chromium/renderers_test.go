//go:build linux

package chromium

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"
	"github.com/mafredri/cdp/session"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// rendererWatch is how long TestOneRendererPerContext watches for renderers started after a
// navigation: Chromium starts the omnibox popups and the spare renderer within about 300 ms.
const rendererWatch = 1500 * time.Millisecond

// TestOneRendererPerContext: a browser context with one tab that has loaded a page runs in
// exactly one renderer process, and the browser shows no WebUI target (disabledFeatures).
// With Chromium's defaults the same session had three: two omnibox popups and a spare.
func TestOneRendererPerContext(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("<!doctype html><title>one</title><p>one renderer"))
	}))
	defer site.Close()
	b := launch(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), budgets.Navigation().Default)
	defer cancel()
	conn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := cdp.NewClient(conn)
	sessions, err := session.NewManager(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sessions.Close()
	bctx, err := c.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := c.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		t.Fatal(err)
	}
	pc, err := sessions.Dial(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	p := cdp.NewClient(pc)
	loaded, err := p.Page.LoadEventFired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	if err := p.Page.Enable(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Page.Navigate(ctx, page.NewNavigateArgs(site.URL)); err != nil {
		t.Fatal(err)
	}
	if _, err := loaded.Recv(); err != nil {
		t.Fatal(err)
	}

	most := 0
	for end := time.Now().Add(rendererWatch); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		most = max(most, renderers(b.Pid()))
	}
	if most != 1 {
		t.Errorf("one context with one loaded tab ran %d renderer processes at most, want 1", most)
	}
	all, err := c.Target.GetTargets(ctx, &target.GetTargetsArgs{Filter: target.Filter{{}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range all.TargetInfos {
		if ti.Type == "browser_ui" {
			t.Errorf("a WebUI target runs: %s %s", ti.Type, ti.URL)
		}
	}
}

// renderers counts the live renderer processes in the browser's process group.
func renderers(pgid int) int {
	n := 0
	for pid, cmd := range proctest.Cmdlines("--type=renderer") {
		if st, ok := proctest.ReadStat(pid); ok && st.Pgid == pgid && strings.Contains(cmd, "--type=renderer") {
			n++
		}
	}
	return n
}
