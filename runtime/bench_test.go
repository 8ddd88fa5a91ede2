package runtime_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/worker"
)

// BenchmarkReadRoundTrip is acceptance 8: one `read` through runtime → transport → worker
// → CDP, against the same fixed script evaluated by a direct mafredri/cdp call on a page
// websocket, on the same page of the same browser. The two alternate within each iteration,
// so machine noise hits both alike; the benchmark reports each path's median and the ratio
// of the medians (ns/op is the pair). ci/bench runs it several times and summarises.
func BenchmarkReadRoundTrip(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	url := site.URL + "/read"
	rt := runtimetest.Open(b)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: url}); err != nil {
		b.Fatal(err)
	}
	c, closeTab := directTab(b, url)
	defer closeTab()
	args := cdpruntime.NewEvaluateArgs(worker.ReadScript()).SetReturnByValue(true)

	viaRuntime := make([]time.Duration, 0, b.N)
	direct := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		res, err := transport.Dispatch(bg, rt, transport.Read{})
		if err != nil || !strings.Contains(res.Text, "Visible paragraph text.") {
			b.Fatalf("read: %v", err)
		}
		t1 := time.Now()
		reply, err := c.Runtime.Evaluate(bg, args)
		if err != nil || !strings.Contains(string(reply.Result.Value), "Visible paragraph text.") {
			b.Fatalf("evaluate: %v", err)
		}
		viaRuntime, direct = append(viaRuntime, t1.Sub(t0)), append(direct, time.Since(t1))
	}
	b.StopTimer()
	reportPair(b, viaRuntime, direct)
}

// reportPair reports the medians of the runtime's and the direct path's alternated samples
// and the ratio of the medians.
func reportPair(b *testing.B, viaRuntime, direct []time.Duration) {
	mr, md := median(viaRuntime), median(direct)
	b.ReportMetric(float64(mr.Microseconds()), "runtime-µs")
	b.ReportMetric(float64(md.Microseconds()), "direct-µs")
	b.ReportMetric(float64(mr)/float64(md), "ratio")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// directTab opens a tab in its own browser context of the shared browser, loads url and
// returns a client on the tab's own websocket.
func directTab(b *testing.B, url string) (*cdp.Client, func()) {
	br, err := runtimetest.Browser()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	bconn, err := rpcc.DialContext(ctx, br.WebSocketURL())
	if err != nil {
		b.Fatal(err)
	}
	bc := cdp.NewClient(bconn)
	bctx, err := bc.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		b.Fatal(err)
	}
	tgt, err := bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		b.Fatal(err)
	}
	conn, err := br.DialPage(ctx, tgt.TargetID) // a flat session through the gate, as the worker's, without the worker
	if err != nil {
		b.Fatal(err)
	}
	c := cdp.NewClient(conn)
	loaded, err := c.Page.LoadEventFired(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Page.Enable(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Page.Navigate(ctx, page.NewNavigateArgs(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := loaded.Recv(); err != nil {
		b.Fatal(err)
	}
	loaded.Close()
	return c, func() {
		conn.Close()
		_ = bc.Target.DisposeBrowserContext(ctx, target.NewDisposeBrowserContextArgs(bctx.BrowserContextID))
		bconn.Close()
	}
}

// BenchmarkObserveBig is the page model's acceptance 6: observe on the fixture's /big page
// (about 2,000 elements) with default budgets and with the largest ones, reporting the median
// time and the outline's size (JSON nodes and text rendering).
func BenchmarkObserveBig(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(b)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/big"}); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		req  transport.Observe
	}{
		{"default-budgets", transport.Observe{}},
		{"max-budgets", transport.Observe{MaxNodes: 5000, MaxDepth: 64, MaxTextChars: 100000}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			times := make([]time.Duration, 0, b.N)
			var last transport.ObserveResult
			for range b.N {
				t0 := time.Now()
				ob, err := transport.Dispatch(bg, rt, bc.req)
				if err != nil {
					b.Fatal(err)
				}
				times, last = append(times, time.Since(t0)), ob
			}
			nodes, _ := json.Marshal(last.Nodes)
			b.ReportMetric(float64(median(times).Microseconds()), "median-µs")
			b.ReportMetric(float64(len(nodes)), "json-bytes")
			b.ReportMetric(float64(len(last.Text)), "text-bytes")
			if bc.req.MaxNodes == 0 && !last.Truncated {
				b.Fatal("default budgets did not truncate a 2,000-element page")
			}
		})
	}
}

// BenchmarkActClick is one act click round trip (locate by ref, actionability checks, real
// mouse events, verification) through runtime → transport → worker → CDP.
func BenchmarkActClick(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.Open(b)
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/controls"}); err != nil {
		b.Fatal(err)
	}
	ob, err := transport.Dispatch(bg, rt, transport.Observe{})
	if err != nil {
		b.Fatal(err)
	}
	ref := findRef(ob.Nodes, "button", "Save")
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		res, err := transport.Dispatch(bg, rt, transport.Act{Action: transport.ActClick, Target: transport.Target{Ref: ref}})
		if err != nil || res.MutationState != transport.Verified {
			b.Fatalf("click: %+v %v", res, err)
		}
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	b.ReportMetric(float64(median(times).Microseconds()), "median-µs")
}

// BenchmarkEnforcement is the egress issue's acceptance 6: navigating to a page with 50
// same-origin subresources through the runtime, where every request pauses at Fetch and is
// classified against the policy, against the same navigation by a direct mafredri/cdp call on
// a tab without interception. The two alternate in each iteration; medians and their ratio
// are reported. A "*" policy is measured too, with and without the edge proxy: it is
// intercepted all the same, since a narrowing context can restrict it per call.
func BenchmarkEnforcement(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	url := site.URL + "/egress/subresources50"
	br, err := runtimetest.Browser()
	if err != nil {
		b.Fatal(err)
	}
	restricted := runtimetest.Open(b, site.URL)
	anyOrigin := runtimetest.OpenWith(b, runtimetest.Options{CDPURL: br.WebSocketURL()})
	anyNoProxy := runtimetest.OpenWith(b, runtimetest.Options{CDPURL: br.WebSocketURL(), EdgeProxy: runtime.EdgeProxyOff})
	c, closeTab := directTab(b, "about:blank")
	defer closeTab()
	loaded, err := c.Page.LoadEventFired(bg)
	if err != nil {
		b.Fatal(err)
	}
	defer loaded.Close()
	var withPolicy, withAny, withAnyNoProxy, direct []time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := transport.Dispatch(bg, restricted, transport.Navigate{URL: url}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := transport.Dispatch(bg, anyOrigin, transport.Navigate{URL: url}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := transport.Dispatch(bg, anyNoProxy, transport.Navigate{URL: url}); err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		if _, err := c.Page.Navigate(bg, page.NewNavigateArgs(url)); err != nil {
			b.Fatal(err)
		}
		if _, err := loaded.Recv(); err != nil {
			b.Fatal(err)
		}
		withPolicy = append(withPolicy, t1.Sub(t0))
		withAny = append(withAny, t2.Sub(t1))
		withAnyNoProxy = append(withAnyNoProxy, t3.Sub(t2))
		direct = append(direct, time.Since(t3))
	}
	b.StopTimer()
	mp, ma, md := median(withPolicy), median(withAny), median(direct)
	b.ReportMetric(float64(mp.Microseconds()), "policy-µs")
	b.ReportMetric(float64(ma.Microseconds()), "any-µs")
	b.ReportMetric(float64(median(withAnyNoProxy).Microseconds()), "any-noproxy-µs")
	b.ReportMetric(float64(md.Microseconds()), "direct-µs")
	b.ReportMetric(float64(mp)/float64(md), "ratio")
}
