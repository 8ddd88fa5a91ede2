package scenario

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/secrets"
)

// TestReportStreamedAsOneEncoder: report.json written one scenario at a time is byte for
// byte what one json.Encoder over the whole report writes (two-space indent, no HTML
// escaping), then scrubbed as a whole; with no scenarios too.
func TestReportStreamedAsOneEncoder(t *testing.T) {
	set := secrets.New()
	if err := set.Add("tok-Stream-8812"); err != nil {
		t.Fatal(err)
	}
	rep := &Report{Version: ReportVersion, RunID: "r1", Status: StatusFailed, StartedAt: time.Unix(1_800_000_000, 0).UTC(),
		Browser: BrowserInfo{Version: "Chrome/156"}, Suite: &SuiteInfo{SHA256: "ab", Files: []SuiteFile{{File: "a <b>.json", SHA256: "cd"}}}}
	for _, id := range []string{"s1", "s2&<>", "s3"} {
		sr := ScenarioReport{ID: id, File: id + ".json", Status: StatusPassed, Operations: []OperationReport{}}
		if id == "s3" {
			sr.Status = StatusFailed
			sr.Error = &transport.OperationError{Code: transport.CodeAssertionFailed, Message: `expected "tok-Stream-8812" <here>`}
		}
		rep.Scenarios = append(rep.Scenarios, sr)
	}
	for _, scenarios := range [][]ScenarioReport{rep.Scenarios, {}} {
		r := *rep
		r.Scenarios = scenarios
		var whole bytes.Buffer
		enc := json.NewEncoder(&whole)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "report.json")
		if err := r.WriteFileScrubbed(path, set.ScrubJSON, artifacts.ModePrivate); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := set.ScrubJSON(whole.Bytes()); !bytes.Equal(got, want) {
			t.Fatalf("%d scenarios: streamed\n%s\nwant\n%s", len(scenarios), got, want)
		}
		if bytes.Contains(got, []byte("tok-Stream-8812")) {
			t.Fatal("the secret reached report.json")
		}
	}
}
