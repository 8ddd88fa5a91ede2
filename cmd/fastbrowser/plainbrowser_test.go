package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestAttachToAPlainBrowser is issue 16's item 6: attached to a Chromium started with
// ordinary flags, whose own background traffic (autofill) goes through the context's egress
// proxy, the quick-start scenarios pass and their report blames none of that traffic on a
// page; the proxy refuses it and records it as browser-background. A WebSocket a page opens
// to an origin outside the policy still fails its operation.
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
	for _, s := range rep.Scenarios {
		for _, op := range s.Operations {
			for _, bl := range op.Blocked {
				if bl.Kind != runtime.KindBrowserBackground {
					t.Errorf("%s/%s: blocked %+v, want only browser background", s.ID, op.Op, bl)
				}
			}
		}
	}

	// Whether the browser's own traffic comes before a scenario's last operation is up to
	// the browser's timing, so a session waits for it: the form page makes the plain browser
	// ask its autofill service, through the context's proxy, which refuses it and records it
	// as the browser's own.
	site := runtimetest.Fixture()
	defer site.Close()
	rt := runtimetest.OpenWith(t, runtimetest.Options{CDPURL: b.WebSocketURL, AllowedOrigins: []string{site.URL}})
	background := awaitBlocked(t, rt, site.URL+"/form", func(bl transport.Blocked) bool { return bl.Kind == runtime.KindBrowserBackground })
	for _, bl := range background {
		if bl.Kind != runtime.KindBrowserBackground {
			t.Errorf("the form page: blocked %+v, want only browser background", bl)
		}
	}
	t.Logf("browser background refused and recorded: %+v", background)

	// The same browser, a page's WebSocket outside the policy.
	canary := runtimetest.NewCanary()
	defer canary.Close()
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

// awaitBlocked navigates to url and reads until a refusal that want accepts is reported (the
// browser's own requests come when it likes), within 10 s; it returns every refusal seen.
func awaitBlocked(t *testing.T, rt transport.Caller, url string, want func(transport.Blocked) bool) []transport.Blocked {
	t.Helper()
	var seen []transport.Blocked
	note := func(res transport.Result, err error) bool {
		if err != nil {
			seen = append(seen, transport.AsOperationError("", err).Blocked...)
		} else {
			seen = append(seen, transport.BlockedOf(res)...)
		}
		return slices.ContainsFunc(seen, want)
	}
	nav, err := transport.Dispatch(context.Background(), rt, transport.Navigate{URL: url})
	found := note(&nav, err)
	for deadline := time.Now().Add(10 * time.Second); !found && time.Now().Before(deadline); {
		rd, err := transport.Dispatch(context.Background(), rt, transport.Read{})
		found = note(&rd, err)
	}
	if !found {
		t.Fatalf("%s: nothing of the kind awaited was refused within 10 s (seen %+v)", url, seen)
	}
	return seen
}
