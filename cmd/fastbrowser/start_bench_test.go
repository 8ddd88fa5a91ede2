package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime/chromium"
)

// BenchmarkSessionStart is issue 15's session-start goal: a `fastbrowser serve` process from
// its start to its ready frame (it launches Chromium, starts its worker and egress proxy,
// opens a browser context and its first tab) against the bare minimum the same browser
// needs — Chromium launched by the same launcher with the same flags, a browser context and a
// tab created over one direct DevTools connection, and one call answered inside the tab (a
// tab is usable once its renderer runs; that start is most of a tab's cost) — alternated in
// each iteration so noise hits both alike. It reports both medians and the difference (goal: ≤ 40 ms).
func BenchmarkSessionStart(b *testing.B) {
	var served, bare []time.Duration
	for range b.N {
		t0 := time.Now()
		p := startServe(b, "*")
		served = append(served, time.Since(t0))
		p.close()

		t0 = time.Now()
		stop := bareSession(b)
		bare = append(bare, time.Since(t0))
		stop()
	}
	ms, mb := median(served), median(bare)
	b.ReportMetric(float64(ms.Milliseconds()), "serve-ready-ms")
	b.ReportMetric(float64(mb.Milliseconds()), "bare-ms")
	b.ReportMetric(float64((ms - mb).Milliseconds()), "overhead-ms")
}

// bareSession launches Chromium and opens a context and a tab in it, directly.
func bareSession(b *testing.B) (stop func()) {
	b.Helper()
	ctx := context.Background()
	br, err := chromium.Launch(ctx, chromium.Options{})
	if err != nil {
		b.Fatal(err)
	}
	stream, err := br.Dial(ctx) // the owner's own way in, as the runtime's
	if err != nil {
		_ = br.Close()
		b.Fatal(err)
	}
	conn, err := rpcc.DialContext(ctx, "", rpcc.WithDialer(func(context.Context, string) (io.ReadWriteCloser, error) { return stream, nil }))
	if err != nil {
		_ = br.Close()
		b.Fatal(err)
	}
	c := cdp.NewClient(conn)
	var page *rpcc.Conn
	stop = func() {
		if page != nil {
			_ = page.Close()
		}
		_ = conn.Close()
		_ = br.Close()
	}
	bctx, err := c.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	var tgt *target.CreateTargetReply
	if err == nil {
		tgt, err = c.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	}
	if err == nil {
		page, err = br.DialPage(ctx, tgt.TargetID)
	}
	if err == nil {
		_, err = cdp.NewClient(page).Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs("1"))
	}
	if err != nil {
		stop()
		b.Fatal(err)
	}
	return stop
}
