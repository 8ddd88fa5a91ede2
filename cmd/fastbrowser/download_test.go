package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestRunDownloadsAReport: a scenario file's download operation keeps the file in the run's
// artifacts, and the report's result names it (path, sha256, bytes), never its bytes.
func TestRunDownloadsAReport(t *testing.T) {
	site := runtimetest.Fixture()
	defer site.Close()
	file := filepath.Join(t.TempDir(), "download.json")
	doc := fmt.Sprintf(`{"version": 1, "id": "download-report", "fixture": {"baseUrl": %q},
  "operations": [
    {"op": "navigate", "request": {"url": "/download/page"}},
    {"id": "report", "op": "download", "request": {"target": {"role": "link", "name": "Monthly report"}}}
  ]}`, site.URL)
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "results")
	res := runCLI(t, nil, "run", "--out", out, file)
	if res.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(out, "report.json"))
	var got transport.DownloadResult
	if err := json.Unmarshal(r.Scenarios[0].Operations[1].Result, &got); err != nil || got.Artifact == nil || got.Payload != nil {
		t.Fatalf("download result %s (%v)", r.Scenarios[0].Operations[1].Result, err)
	}
	data, err := os.ReadFile(filepath.Join(out, "artifacts", got.Artifact.Path))
	sum := sha256.Sum256(data)
	if err != nil || string(data) != fixture.DownloadReportBody || got.Artifact.SHA256 != hex.EncodeToString(sum[:]) || got.Artifact.Bytes != int64(len(data)) {
		t.Fatalf("kept %q (%v), result %+v", data, err, got.Artifact)
	}
}
