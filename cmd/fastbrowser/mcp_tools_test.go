package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
)

// TestMCPTabsHistoryAssert drives the history, tab, popup and assert tools of `fastbrowser
// mcp` against real Chromium and the fixture site: back and forward across two pages, a
// popup opened by a click, waited for, listed, selected, read and closed, an assertion
// that holds and one that fails with what it expected and what the page had; and, the
// server started without --artifacts, browser_screenshot and browser_download refused
// naming the flag; and the session exported with its tabs named as a file names them,
// replayed by run.
func TestMCPTabsHistoryAssert(t *testing.T) {
	site := shopServer(t, mcpPassword)
	c := startMCP(t, "--binding-origin", site)
	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{site}})["session"].(string)
	in := func(args map[string]any) map[string]any { args["session"] = session; return args }

	if e := c.refused("browser_screenshot", in(map[string]any{})); e["code"] != "invalid_request" || e["mutationState"] != "not_attempted" ||
		!strings.Contains(e["message"].(string), "--artifacts") {
		t.Errorf("screenshot without --artifacts: %v; want invalid_request naming --artifacts", e)
	}
	if e := c.refused("browser_download", in(map[string]any{"target": map[string]any{"role": "link", "name": "Monthly report"}})); e["code"] != "invalid_request" ||
		!strings.Contains(e["message"].(string), "--artifacts") {
		t.Errorf("download without --artifacts: %v; want invalid_request naming --artifacts", e)
	}

	// Back and forward across two pages; reload stays.
	enveloped(t, c.ok("browser_navigate", in(map[string]any{"url": site + "/about"})))
	enveloped(t, c.ok("browser_navigate", in(map[string]any{"url": site + "/popup"})))
	if back := enveloped(t, c.ok("browser_back", in(map[string]any{}))); back["url"] != site+"/about" || back["title"] != "About the fixture" {
		t.Errorf("back: %v; want /about", back)
	}
	if fwd := enveloped(t, c.ok("browser_forward", in(map[string]any{}))); fwd["url"] != site+"/popup" || fwd["title"] != "Popup opener" {
		t.Errorf("forward: %v; want /popup", fwd)
	}
	if re := enveloped(t, c.ok("browser_reload", in(map[string]any{}))); re["url"] != site+"/popup" {
		t.Errorf("reload: %v; want /popup", re)
	}

	// A popup: opened by a click, waited for, listed, selected, read, closed.
	enveloped(t, c.ok("browser_act", in(map[string]any{"action": "click", "target": map[string]any{"role": "button", "name": "Open popup"}})))
	pop := enveloped(t, c.ok("browser_wait_popup", in(map[string]any{})))
	popup, opener := pop["popup"].(string), pop["opener"].(string)
	if popup == "" || opener == "" || popup == opener || pop["url"] != site+"/popup/child" {
		t.Fatalf("wait_popup: %v; want the child's handle and url", pop)
	}
	tabs := enveloped(t, c.ok("browser_tabs", in(map[string]any{})))
	if got := tabHandles(tabs); len(got) != 2 || got[0] != opener || got[1] != popup || tabs["selected"] != opener {
		t.Errorf("tabs %v: want [%s %s], %s selected", tabs, opener, popup, opener)
	}
	if sel := enveloped(t, c.ok("browser_select_tab", in(map[string]any{"tab": popup}))); sel["selectedTab"] != popup || sel["title"] != "Popup child" {
		t.Errorf("select_tab: %v", sel)
	}
	if text := enveloped(t, c.ok("browser_read", in(map[string]any{})))["text"].(string); !strings.Contains(text, "This is the popup") {
		t.Errorf("read after selecting the popup: %q", text)
	}

	// An assertion that holds, one turned round that holds, and one that fails.
	if a := c.ok("browser_assert", in(map[string]any{"kind": "title", "value": "Popup child"})); a["passed"] != true || a["kind"] != "title" {
		t.Errorf("assert title: %v", a)
	}
	if a := c.ok("browser_assert", in(map[string]any{"kind": "textContains", "value": "Popup opener", "not": true, "wait": "none"})); a["passed"] != true {
		t.Errorf("assert not textContains: %v", a)
	}
	e := c.refused("browser_assert", in(map[string]any{"kind": "text", "target": map[string]any{"role": "heading"}, "value": "Nope", "wait": "none"}))
	if e["code"] != "assertion_failed" || e["mutationState"] != "not_attempted" || !strings.Contains(e["expected"].(string), "Nope") {
		t.Errorf("failed assert: %v; want assertion_failed expecting \"Nope\"", e)
	}
	if got, _ := e["received"].(string); !strings.Contains(got, "Popup child") {
		t.Errorf("failed assert's received %v: want the heading's text (inside the detail envelope)", e["received"])
	}
	if e := c.refused("browser_assert", in(map[string]any{"kind": "nosuchkind"})); e["code"] != "invalid_request" {
		t.Errorf("assert of an unknown kind: %v", e)
	}

	// Closing the selected popup leaves none selected until the opener is selected again.
	if closed := c.ok("browser_close_tab", in(map[string]any{"tab": popup})); closed["closed"] != popup || closed["selected"] != "" {
		t.Errorf("close_tab: %v; want %s closed, none selected", closed, popup)
	}
	if got := tabHandles(enveloped(t, c.ok("browser_tabs", in(map[string]any{})))); len(got) != 1 || got[0] != opener {
		t.Errorf("tabs after close_tab: %v; want [%s]", got, opener)
	}
	if e := c.refused("browser_select_tab", in(map[string]any{"tab": popup})); e["code"] != "tab_not_found" {
		t.Errorf("select a closed tab: %v; want tab_not_found", e)
	}
	c.ok("browser_select_tab", in(map[string]any{"tab": opener}))
	if text := enveloped(t, c.ok("browser_read", in(map[string]any{})))["text"].(string); !strings.Contains(text, "Popup opener") {
		t.Errorf("read after selecting the opener: %q", text)
	}

	// The export names the popup by the waitPopup that returned it and the opener as the
	// initial tab (a handle means nothing to a fresh browser), and replays: back, forward,
	// reload, the popup opened, waited for, selected, asserted on, closed, the opener
	// selected again. The failed assertion and selection are not in it.
	file, out, isErr := c.export(in(map[string]any{}))
	if isErr {
		t.Fatalf("export: %v", out)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(file)); err != nil {
		t.Fatalf("the export is not JSON: %v\n%s", err, file)
	}
	popupRef := `"tab":{"operation":{"id":"popup-1"},"result":"popup","source":"operation"}`
	for _, want := range []string{`"id":"popup-1","op":"waitPopup"`, `"op":"selectTab","request":{` + popupRef + `}`, `"op":"closeTab","request":{` + popupRef + `}`,
		`"op":"selectTab","request":{"tab":{"source":"initial","target":"selected"}}`} {
		if !strings.Contains(compact.String(), want) {
			t.Errorf("the export lacks %s:\n%s", want, file)
		}
	}
	for _, banned := range []string{popup, opener, "Nope"} {
		if strings.Contains(file, banned) {
			t.Errorf("the export holds %q:\n%s", banned, file)
		}
	}
	path := filepath.Join(t.TempDir(), "tabs.json")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := runCLI(t, nil, "run", "--trace", "off", "--out", filepath.Join(t.TempDir(), "results"), path); res.code != 0 {
		t.Fatalf("run of the export: exit %d\n%s%s\n%s", res.code, res.stdout, res.stderr, file)
	}
	c.ok("browser_close", in(map[string]any{}))
}

func tabHandles(listed map[string]any) []string {
	var handles []string
	tabs, _ := listed["tabs"].([]any)
	for _, tab := range tabs {
		m, _ := tab.(map[string]any)
		h, _ := m["tab"].(string)
		handles = append(handles, h)
	}
	return handles
}

// TestMCPScreenshotAndDownload: a screenshot of the shop's login form with the password
// typed by browser_type_secret is kept in the --artifacts store with a proven redaction that
// masked the field, and comes back as its metadata and a PNG image whose bytes are the
// committed artifact's; a download comes back as its path and sha256, never its bytes; the
// password is in no result, log line or artifact.
func TestMCPScreenshotAndDownload(t *testing.T) {
	shop := shopServer(t, mcpPassword)
	artifacts := t.TempDir()
	c := startMCP(t, "--binding-origin", shop, "--secret-env", "FIXTURE_PW", "--artifacts", artifacts)
	session := c.ok("browser_open", map[string]any{"allowedOrigins": []string{shop}})["session"].(string)

	enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/shop/login"}))
	outline := enveloped(t, c.ok("browser_observe", map[string]any{"session": session}))["text"].(string)
	pw := outlineRef(t, outline, "password", "Password")
	enveloped(t, c.ok("browser_type_secret", map[string]any{"session": session, "target": map[string]any{"ref": pw}, "name": "FIXTURE_PW"}))

	out, isErr, images := c.callWithImages("browser_screenshot", map[string]any{"session": session})
	if isErr {
		t.Fatalf("screenshot: %v", out)
	}
	shot := enveloped(t, out)
	proof, _ := shot["redaction"].(map[string]any)
	if proof["proven"] != true || proof["masked"].(float64) < 1 || proof["unmasked"] != float64(0) {
		t.Errorf("screenshot's redaction %v: want proven, the password field masked", proof)
	}
	artifact, _ := shot["artifact"].(map[string]any)
	path, _ := artifact["path"].(string)
	sum, _ := artifact["sha256"].(string)
	if path == "" || len(sum) != 64 || artifact["kind"] != "screenshot" || shot["payload"] != nil {
		t.Fatalf("screenshot's artifact %v: want a screenshot's path and sha256, no payload", artifact)
	}
	if len(images) != 1 || images[0].MIMEType != "image/png" {
		t.Fatalf("screenshot: %d images %v; want one image/png", len(images), images)
	}
	if _, err := png.Decode(bytes.NewReader(images[0].Data)); err != nil {
		t.Errorf("the image does not decode as PNG: %v", err)
	}
	if got := sha256.Sum256(images[0].Data); hex.EncodeToString(got[:]) != sum {
		t.Errorf("the image's sha256 %x differs from the artifact's %s", got, sum)
	}
	kept, err := os.ReadFile(filepath.Join(artifacts, filepath.FromSlash(path)))
	if err != nil || !bytes.Equal(kept, images[0].Data) {
		t.Errorf("the store's file at %s (err %v) is not the image's bytes", path, err)
	}

	// A download: its path and sha256 in the store, never its bytes.
	enveloped(t, c.ok("browser_navigate", map[string]any{"session": session, "url": shop + "/download/page"}))
	got := enveloped(t, c.ok("browser_download", map[string]any{"session": session, "target": map[string]any{"role": "link", "name": "Monthly report"}}))
	file, _ := got["artifact"].(map[string]any)
	want := sha256.Sum256([]byte(fixture.DownloadReportBody))
	if file["sha256"] != hex.EncodeToString(want[:]) || file["kind"] != "download" || got["suggestedFilename"] != fixture.DownloadReportName || got["payload"] != nil {
		t.Errorf("download: %v; want the report's artifact, no payload", got)
	}
	if kept, err := os.ReadFile(filepath.Join(artifacts, filepath.FromSlash(file["path"].(string)))); err != nil || string(kept) != fixture.DownloadReportBody {
		t.Errorf("the store's download at %v (err %v) is not the report", file["path"], err)
	}
	if strings.Contains(c.results[len(c.results)-1], "Tea,4.20") {
		t.Errorf("the download's result holds its bytes: %s", c.results[len(c.results)-1])
	}
	c.ok("browser_close", map[string]any{"session": session})

	texts := map[string][]byte{"mcp stderr": []byte(c.stderr.String())}
	for i, r := range c.results {
		texts["tool result "+strconv.Itoa(i)] = []byte(r)
	}
	sweepForSecret(t, mcpPassword, artifacts, texts)
}
