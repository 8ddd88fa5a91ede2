package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestAttachToAPlainBrowser is issue 16's item 6: attached to a Chromium started with
// ordinary flags, whose own background traffic (autofill) goes through the context's egress
// proxy, the quick-start scenarios pass; the proxy refuses that traffic and the report
// records it as browser-background. A WebSocket a page opens to an origin outside the policy
// still fails its operation.
func TestAttachToAPlainBrowser(t *testing.T) {
	b := runtimetest.StartPlainBrowser(t)
	out := filepath.Join(t.TempDir(), "results")
	res := runCLI(t, quickstartEnv, "run", "--cdp-url", b.HTTPURL, "--out", out, "../../scenarios/quickstart")
	if res.code != 0 || !strings.Contains(res.stdout, quickstartPassed) {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep scenario.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	var background []transport.Blocked
	for _, s := range rep.Scenarios {
		for _, op := range s.Operations {
			for _, bl := range op.Blocked {
				if bl.Kind != runtime.KindBrowserBackground {
					t.Errorf("%s/%s: blocked %+v, want only browser background", s.ID, op.Op, bl)
				}
				background = append(background, bl)
			}
		}
	}
	if len(background) == 0 {
		t.Fatal("no browser-background refusal recorded: the plain browser's autofill traffic went unseen")
	}
	t.Logf("browser background refused and recorded: %+v", background)

	// The same browser, a page's WebSocket outside the policy.
	site := runtimetest.Fixture()
	defer site.Close()
	canary := runtimetest.NewCanary()
	defer canary.Close()
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL, AllowedOrigins: []string{site.URL}})
	_, err = transport.Dispatch(context.Background(), rt, transport.Navigate{URL: fixture.EgressURL(site.URL, "websocket", canary.URL)})
	oe := transport.AsOperationError("", err)
	if err == nil || oe.Code != transport.CodeEgressDenied {
		t.Fatalf("navigate to a page opening a WebSocket outside the policy: %v", err)
	}
	want := transport.Blocked{Kind: "websocket", Origin: canary.URL}
	found := false
	for _, bl := range oe.Blocked {
		found = found || bl == want
	}
	if !found {
		t.Fatalf("blocked %+v, want %+v among them", oe.Blocked, want)
	}
	if canary.Connections() != 0 {
		t.Fatalf("the canary saw %d connections", canary.Connections())
	}
}
