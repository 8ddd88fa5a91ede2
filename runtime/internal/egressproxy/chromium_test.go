package egressproxy

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
)

// chromiumRun is what one page load behind the proxy did.
type chromiumRun struct {
	allowedHits  int64 // requests the allowed page's server handled
	refusedConns int64 // connections the refused server accepted
	blocked      []Blocked
	asked        bool // whether the proxy was asked about the allowed origin
}

// loadBehindProxy launches Chromium, opens a context proxied through a fresh Proxy with
// the given bypass list, and loads an allowed page that reaches for a refused origin by
// WebSocket and by <img>.
func loadBehindProxy(t *testing.T, bypass string) chromiumRun {
	t.Helper()
	if _, err := os.Stat(chromium.DefaultExecutable); err != nil {
		t.Fatalf("%s is missing (ci/test installs it; a missing browser is never a reason to skip): %v", chromium.DefaultExecutable, err)
	}
	refusedLn := listen(t)
	refused := httptest.NewUnstartedServer(http.NotFoundHandler())
	refused.Listener.Close()
	refused.Listener = refusedLn
	refused.Start()
	defer refused.Close()
	refusedAddr := refusedLn.Addr().String()

	var hits atomic.Int64
	allowed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>ok</title><img src="http://%[1]s/img">
<script>try { new WebSocket('ws://%[1]s/x') } catch (e) {}</script>`, refusedAddr)
	}))
	defer allowed.Close()

	p, asked := startProxy(t, httpOrigin(allowed.URL))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := chromium.Launch(ctx, chromium.Options{})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	defer func() {
		if err := b.Close(); err != nil {
			t.Errorf("browser Close: %v", err)
		}
		proctest.RequireGroupGone(t, b.Pid(), 5*time.Second)
		if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "fastbrowser-profile-*")); len(left) > 0 {
			t.Errorf("profiles left: %v", left)
		}
	}()

	bconn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	defer bconn.Close()
	bc := cdp.NewClient(bconn)
	cargs := target.NewCreateBrowserContextArgs().SetProxyServer(p.URL())
	if bypass != "" {
		cargs.SetProxyBypassList(bypass)
	}
	bctx, err := bc.Target.CreateBrowserContext(ctx, cargs)
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := b.DialPage(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := cdp.NewClient(conn)
	loaded, err := c.Page.LoadEventFired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	if err := c.Page.Enable(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Page.Navigate(ctx, page.NewNavigateArgs(allowed.URL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := loaded.Recv(); err != nil {
		t.Fatalf("load event: %v", err)
	}
	// The WebSocket attempt is asynchronous: wait for the proxy to refuse its CONNECT (a
	// loaded machine can take longer than any fixed pause). The refusal is the proxy's
	// answer before it dials anything, so nothing can reach the refused origin after it.
	proctest.PollUntil(10*time.Second, func() bool {
		return slices.ContainsFunc(p.Blocked(), func(b Blocked) bool { return b.Kind == "connect" })
	})
	run := chromiumRun{
		allowedHits:  hits.Load(),
		refusedConns: refusedLn.n.Load(),
		blocked:      p.Blocked(),
		asked:        asked.wasAsked(httpOrigin(allowed.URL)),
	}
	_ = bc.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(bctx.BrowserContextID))
	return run
}

// TestChromiumThroughProxy checks the proxy against the real browser: the allowed page
// loads through it, and neither the page's WebSocket nor its <img> reaches the refused
// origin (a different port on the same loopback host).
func TestChromiumThroughProxy(t *testing.T) {
	run := loadBehindProxy(t, "<-loopback>")
	t.Logf("Chromium behind the proxy: %+v", run)
	if run.allowedHits == 0 || !run.asked {
		t.Errorf("allowed page did not load through the proxy: %+v", run)
	}
	if run.refusedConns != 0 {
		t.Errorf("refused origin accepted %d connections", run.refusedConns)
	}
	refusedConnect := func(b Blocked) bool { return b.Kind == "connect" }
	if !slices.ContainsFunc(run.blocked, refusedConnect) {
		t.Errorf("no refused CONNECT recorded; Chromium's WebSocket should tunnel: %v", run.blocked)
	}
}
