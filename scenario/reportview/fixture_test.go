package reportview

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
	"github.com/fastbrowser/fastbrowser/transport"
)

// writeArtifact stores data under dir/rel and returns its metadata, as the runtime would.
func writeArtifact(t *testing.T, dir, rel, kind, contentType string, data []byte) artifacts.Meta {
	t.Helper()
	full := filepath.Join(dir, rel)
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

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 160, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jsonBytes(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// failingReport is a run whose one scenario failed at operation 2 with full evidence.
func failingReport(t *testing.T, dir, message string) *scenario.Report {
	t.Helper()
	base := "sess/run1/"
	ev := []artifacts.Meta{
		writeArtifact(t, dir, base+"a1.png", transport.PartScreenshot, "image/png", pngBytes(t, 200, 100)),
		writeArtifact(t, dir, base+"a2.json", transport.PartConsole, "application/json", jsonBytes(t, transport.ConsoleSummary{
			Entries: []transport.ConsoleEntry{{Level: "error", Message: "Uncaught TypeError: x is undefined", Count: 3}}})),
		writeArtifact(t, dir, base+"a3.json", transport.PartNetwork, "application/json", jsonBytes(t, transport.NetworkSummary{
			Entries: []transport.NetworkEntry{{Method: "GET", URL: "http://127.0.0.1:8080", Status: 500, Category: "http_error", Count: 1}}})),
		writeArtifact(t, dir, base+"a4.json", transport.PartOutline, "application/json", jsonBytes(t, transport.ObserveResult{
			URL: "http://127.0.0.1:8080/login", Title: "Sign in", Text: "heading \"Sign in\"\n  textbox \"Email\""})),
	}
	return &scenario.Report{
		Version: scenario.ReportVersion, RunID: "20260101T000000Z-abcd1234", Status: scenario.StatusFailed,
		StartedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), DurationMs: 1234,
		Browser: scenario.BrowserInfo{Version: "Chrome/140.0"},
		Scenarios: []scenario.ScenarioReport{
			{ID: "home", File: "scenarios/home.json", Status: scenario.StatusPassed, DurationMs: 80,
				Enforcement: []string{"browser"}, Operations: []scenario.OperationReport{{Index: 0, Op: "navigate", Status: "passed", Posture: transport.PostureOK}}},
			{ID: "login", File: "scenarios/login.json", Status: scenario.StatusFailed, DurationMs: 900,
				Enforcement: []string{"browser", "proxy"},
				Events:      []scenario.Event{{AtMs: 0, Kind: "runtime", Name: "open", Status: "ok"}},
				Operations: []scenario.OperationReport{
					{Index: 0, Op: "navigate", Status: "passed", Posture: transport.PostureOK},
					{Index: 1, Op: "act", Status: "passed", Posture: transport.PostureOK},
					{Index: 2, ID: "check-title", Op: "assert", Status: "failed", DurationMs: 9, Posture: transport.PostureFailed,
						Error: &transport.OperationError{Operation: "assert", Phase: transport.PhaseVerify, Code: transport.CodeAssertionFailed,
							Message: message, Retry: transport.RetrySafe, MutationState: transport.NotAttempted},
						Evidence: ev,
						EvidenceUnavailable: []transport.UnavailablePart{{Part: "screenshot", Code: transport.CodeRedactionNotProven,
							Message: "a secret field stayed visible"}}},
				}},
		},
	}
}
