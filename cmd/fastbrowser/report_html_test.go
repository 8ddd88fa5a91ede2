package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mafredri/cdp"
	"github.com/mafredri/cdp/protocol/network"
	"github.com/mafredri/cdp/protocol/page"
	cdpruntime "github.com/mafredri/cdp/protocol/runtime"
	"github.com/mafredri/cdp/protocol/target"
	"github.com/mafredri/cdp/rpcc"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestReportHTMLInChromium is the HTML report's acceptance test: a failed run's report, with
// real evidence files, rendered by `fastbrowser report --html` and opened in real headless
// Chromium. The page must show the failure and the decoded screenshot while making no
// request beyond the page itself.
func TestReportHTMLInChromium(t *testing.T) {
	dir := t.TempDir()
	rep := failedRunReport(t, filepath.Join(dir, "artifacts"))
	reportPath := filepath.Join(dir, "report.json")
	if err := rep.WriteFile(reportPath); err != nil {
		t.Fatal(err)
	}
	htmlPath := filepath.Join(dir, "report.html")
	res := runCLI(t, nil, "report", reportPath, "--html", htmlPath)
	if res.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"operations[2] check-title (assert): assertion_failed", "artifacts/s1/r1/shot.png"} {
		if !strings.Contains(res.stdout, want) {
			t.Fatalf("summary lacks %q:\n%s", want, res.stdout)
		}
	}
	if fi, err := os.Stat(htmlPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("report.html: %v %v", fi, err)
	}

	// Serve the page and count every request that reaches the server.
	var mu sync.Mutex
	var hits []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.Path)
		mu.Unlock()
		if r.URL.Path != "/report.html" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, htmlPath)
	}))
	defer srv.Close()
	pageURL := srv.URL + "/report.html"

	got, requested := loadInChromium(t, pageURL)
	if !strings.Contains(got.Text, "check-title") || !strings.Contains(got.Text, "assertion_failed") ||
		!strings.Contains(got.Text, "title did not equal") {
		t.Fatalf("the page does not show the failing operation:\n%s", got.Text)
	}
	if got.Images != 1 || got.NaturalWidth != 200 || got.NaturalHeight != 100 {
		t.Fatalf("screenshot: %d images, natural %dx%d, want one 200x100", got.Images, got.NaturalWidth, got.NaturalHeight)
	}
	for _, u := range requested {
		if u != pageURL && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s", u)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 1 {
		t.Fatalf("the server saw %d requests, want only the page: %v", len(hits), hits)
	}
}

func TestReportCommandRefusesBadReports(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.json"), "missing.json: no such report file"},
		{write("garbage.json", "{not json"), "garbage.json: not valid report JSON"},
		{write("v2.json", `{"version":2,"runId":"x","status":"passed"}`), "report version 2 is not supported"},
		{write("noversion.json", `{"runId":"x"}`), `noversion.json: no "version"`},
	} {
		res := runCLI(t, nil, "report", c.path)
		if res.code != 2 || !strings.Contains(res.stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", filepath.Base(c.path), res.code, res.stderr, c.want)
		}
	}
	if res := runCLI(t, nil, "report"); res.code != 2 {
		t.Errorf("no argument: exit %d", res.code)
	}
}

// pageState is what the loaded report page shows, read from the DOM.
type pageState struct {
	Text          string `json:"text"`
	Images        int    `json:"images"`
	NaturalWidth  int    `json:"naturalWidth"`
	NaturalHeight int    `json:"naturalHeight"`
}

// loadInChromium opens pageURL in a fresh target (in its own browser context) of the shared
// browser, with the Network domain on from before navigation, and returns the page's state
// and every URL the page asked for.
func loadInChromium(t *testing.T, pageURL string) (pageState, []string) {
	t.Helper()
	b, err := runtimetest.Browser()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bconn, err := rpcc.DialContext(ctx, b.WebSocketURL())
	if err != nil {
		t.Fatal(err)
	}
	defer bconn.Close()
	bc := cdp.NewClient(bconn)
	bctx, err := bc.Target.CreateBrowserContext(ctx, target.NewCreateBrowserContextArgs())
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Target.DisposeBrowserContext(context.Background(), target.NewDisposeBrowserContextArgs(bctx.BrowserContextID))
	tgt, err := bc.Target.CreateTarget(ctx, target.NewCreateTargetArgs("about:blank").SetBrowserContextID(bctx.BrowserContextID))
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Target.CloseTarget(context.Background(), target.NewCloseTargetArgs(tgt.TargetID))

	pconn, err := b.DialPage(ctx, tgt.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	defer pconn.Close()
	pc := cdp.NewClient(pconn)

	sent, err := pc.Network.RequestWillBeSent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sent.Close()
	if err := pc.Network.Enable(ctx, network.NewEnableArgs()); err != nil {
		t.Fatal(err)
	}
	lifecycle, err := pc.Page.LifecycleEvent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lifecycle.Close()
	if err := pc.Page.Enable(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pc.Page.SetLifecycleEventsEnabled(ctx, page.NewSetLifecycleEventsEnabledArgs(true)); err != nil {
		t.Fatal(err)
	}
	nav, err := pc.Page.Navigate(ctx, page.NewNavigateArgs(pageURL))
	if err != nil {
		t.Fatal(err)
	}
	if nav.ErrorText != nil {
		t.Fatalf("navigate: %s", *nav.ErrorText)
	}
	// A late request (a favicon, a lazy asset) is counted too: Chromium says networkIdle
	// once the document has loaded and nothing has been in flight for 500 ms.
	for {
		ev, err := lifecycle.Recv()
		if err != nil {
			t.Fatalf("waiting for networkIdle: %v", err)
		}
		if ev.Name == "networkIdle" && ev.LoaderID == *nav.LoaderID {
			break
		}
	}

	const js = `(() => { const imgs = document.querySelectorAll("img");
		return JSON.stringify({text: document.body.innerText, images: imgs.length,
			naturalWidth: imgs.length ? imgs[0].naturalWidth : 0, naturalHeight: imgs.length ? imgs[0].naturalHeight : 0}); })()`
	ev, err := pc.Runtime.Evaluate(ctx, cdpruntime.NewEvaluateArgs(js).SetReturnByValue(true))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ExceptionDetails != nil {
		t.Fatalf("evaluate: %s", ev.ExceptionDetails.Text)
	}
	var raw string
	var st pageState
	if err := json.Unmarshal(ev.Result.Value, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatal(err)
	}

	var requested []string
	for {
		select {
		case <-sent.Ready():
			r, err := sent.Recv()
			if err != nil {
				t.Fatal(err)
			}
			requested = append(requested, r.Request.URL)
			t.Logf("request: %.60s", r.Request.URL)
			continue
		default:
		}
		break
	}
	if len(requested) == 0 {
		t.Fatal("the Network domain saw no request at all: it was not watching")
	}
	return st, requested
}

// failedRunReport is a run whose scenario failed at operation 2 (assert, assertion_failed),
// with a real 200×100 PNG and console, network and outline summaries committed under
// artifactsDir as the runtime commits them.
func failedRunReport(t *testing.T, artifactsDir string) *scenario.Report {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 200, 100))
	for x := 0; x < 200; x++ {
		for y := 0; y < 100; y++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(2 * y), 90, 255})
		}
	}
	var shot bytes.Buffer
	if err := png.Encode(&shot, img); err != nil {
		t.Fatal(err)
	}
	commit := func(rel, kind, contentType string, data []byte) artifacts.Meta {
		full := filepath.Join(artifactsDir, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		return artifacts.Meta{ID: filepath.Base(rel), Owner: "login", Kind: kind, Path: rel, Bytes: int64(len(data)),
			ContentType: contentType, SHA256: hex.EncodeToString(sum[:]), LocalOnly: true}
	}
	asJSON := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	evidence := []artifacts.Meta{
		commit("s1/r1/shot.png", transport.PartScreenshot, "image/png", shot.Bytes()),
		commit("s1/r1/console.json", transport.PartConsole, "application/json", asJSON(transport.ConsoleSummary{
			Entries: []transport.ConsoleEntry{{Level: "error", Message: "Uncaught TypeError: user is null", Count: 2}}})),
		commit("s1/r1/network.json", transport.PartNetwork, "application/json", asJSON(transport.NetworkSummary{
			Entries: []transport.NetworkEntry{{Method: "POST", URL: "http://127.0.0.1:9", Category: "failed", Count: 1}}})),
		commit("s1/r1/outline.json", transport.PartOutline, "application/json", asJSON(transport.ObserveResult{
			URL: "http://127.0.0.1:9/login", Title: "Sign in", Text: "heading \"Sign in\"\n  button \"Continue\""})),
	}
	rep := &scenario.Report{
		Version: scenario.ReportVersion, RunID: "20260101T000000Z-0badf00d", StartedAt: time.Now().UTC(), DurationMs: 1500,
		Browser: scenario.BrowserInfo{Version: "Chrome/140.0.0.0"},
		Scenarios: []scenario.ScenarioReport{{
			ID: "login", File: "scenarios/login.json", Status: scenario.StatusFailed, DurationMs: 1400,
			Enforcement: []string{"browser", "proxy"},
			Events:      []scenario.Event{{AtMs: 0, Kind: "runtime", Name: "open", Status: "ok"}},
			Operations: []scenario.OperationReport{
				{Index: 0, Op: "navigate", Status: scenario.StatusPassed, DurationMs: 120, Posture: transport.PostureOK},
				{Index: 1, Op: "act", Status: scenario.StatusPassed, DurationMs: 40, Posture: transport.PostureOK},
				{Index: 2, ID: "check-title", Op: "assert", Status: scenario.StatusFailed, DurationMs: 9, Posture: transport.PostureFailed,
					Error: &transport.OperationError{Operation: "assert", Phase: transport.PhaseVerify, Code: transport.CodeAssertionFailed,
						Message: `title did not equal "Dashboard" (title is "Sign in")`, Retry: transport.RetrySafe, MutationState: transport.NotAttempted},
					Evidence: evidence},
			},
		}},
	}
	rep.Summarise()
	return rep
}

// TestRunReportHTMLInChromium is acceptance 4 on a real failing run: the report.html that
// `run` wrote opens in Chromium, shows the failing operation, its error code and the
// failure screenshot, and requests nothing but itself.
func TestRunReportHTMLInChromium(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	dir := t.TempDir()
	f := writeScenario(t, dir, "fail.json", fmt.Sprintf(`{
  "version": 1, "id": "html-evidence",
  "fixture": {"baseUrl": %q, "server": {"mode": "external", "readiness": {"url": %q}}},
  "operations": [
    {"id": "open", "op": "navigate", "request": {"url": "/form"}},
    {"id": "wrong-title", "op": "assert", "request": {"kind": "title", "value": "Dashboard", "wait": "none"}}
  ]}`, site.URL, site.URL+"/health"))
	out := filepath.Join(dir, "out")
	// --trace off: this is the failure evidence, embedded; a step trace's pictures are files
	// beside the page (TestTraceOnFailureByDefault).
	if res := runCLI(t, nil, "run", "--trace", "off", "--out", out, f); res.code != 1 {
		t.Fatalf("run exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	htmlPath := filepath.Join(out, "report.html")
	if fi, err := os.Stat(htmlPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("report.html: %v %v", fi, err)
	}
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.ServeFile(w, r, htmlPath)
	}))
	defer srv.Close()
	pageURL := srv.URL + "/report.html"
	got, requested := loadInChromium(t, pageURL)
	if !strings.Contains(got.Text, "wrong-title") || !strings.Contains(got.Text, "assertion_failed") {
		t.Fatalf("the page does not show the failing operation:\n%s", got.Text)
	}
	if got.Images != 1 || got.NaturalWidth == 0 {
		t.Fatalf("screenshot: %d images, natural width %d", got.Images, got.NaturalWidth)
	}
	for _, u := range requested {
		if u != pageURL && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s", u)
		}
	}
	if hits.Load() != 1 {
		t.Fatalf("the server saw %d requests, want only the page", hits.Load())
	}
}
