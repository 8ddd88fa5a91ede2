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
// It reports per scenario the time, the bytes allocated while writing and the bytes the
// report holds in memory until then: all stay flat as the run grows (ci/bench-scale measures
// the whole run at those sizes; docs/scale.md).
func BenchmarkWriteReports(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "scale-scenario-report.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{20, 200, 1000} {
		// Each scenario's report decoded on its own, so none shares memory with another (as in
		// a run); held is what the report occupies while the run holds it.
		held := heapAfterGC()
		rep := &scenario.Report{Version: scenario.ReportVersion, RunID: "bench", StartedAt: time.Now().UTC(), Status: scenario.StatusPassed}
		for i := range n {
			var sr scenario.ScenarioReport
			if err := json.Unmarshal(data, &sr); err != nil {
				b.Fatal(err)
			}
			sr.ID, sr.File = fmt.Sprintf("bench-%04d", i+1), fmt.Sprintf("suite/s%04d.json", i+1)
			rep.Scenarios = append(rep.Scenarios, sr)
		}
		held = heapAfterGC() - held
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
			b.ReportMetric(float64(held)/float64(n), "held-B/scenario")
		})
		goruntime.KeepAlive(rep)
	}
}

// heapAfterGC is the live heap once a collection has run.
func heapAfterGC() int64 {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
