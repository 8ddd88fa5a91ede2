package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/scenario"
)

// BenchmarkWriteReports writes report.json, junit.xml and report.html (writeReports, as `run`
// does at its end) for 20, 200 and 1,000 passed scenarios, each the report one scenario of
// ci/bench-suite got in a real run (testdata/scale-scenario-report.json), without a browser.
// It reports the time and the bytes allocated per scenario: both stay flat as the run grows
// (ci/bench-scale measures the whole run at those sizes; docs/scale.md).
func BenchmarkWriteReports(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "scale-scenario-report.json"))
	if err != nil {
		b.Fatal(err)
	}
	var one scenario.ScenarioReport
	if err := json.Unmarshal(data, &one); err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{20, 200, 1000} {
		rep := &scenario.Report{Version: scenario.ReportVersion, RunID: "bench", StartedAt: time.Now().UTC(), Status: scenario.StatusPassed}
		for i := range n {
			sr := one
			sr.ID, sr.File = fmt.Sprintf("bench-%04d", i+1), fmt.Sprintf("suite/s%04d.json", i+1)
			rep.Scenarios = append(rep.Scenarios, sr)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			out := b.TempDir()
			ro := newRunOutput(&state{stdout: io.Discard, stderr: io.Discard}, artifacts.ModePrivate)
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := writeReports(out, rep, ro); err != nil {
					b.Fatal(err)
				}
			}
			goruntime.ReadMemStats(&after)
			per := float64(b.N * n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/scenario")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/scenario")
		})
	}
}
