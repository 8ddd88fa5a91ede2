package runtime_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// BenchmarkFailureEvidence measures one failure-evidence capture as the runtime makes it
// (the worker's capture bounded by the 2 s failure-evidence budget, which is also the
// screenshot floor, then the round trip and the commit): on a normal page (/echo) and on a
// page whose main thread spins (/hang). It reports the median and the maximum in ms; the
// worker's budget is 2000 ms.
func BenchmarkFailureEvidence(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	for _, page := range []string{"/echo", "/hang?after=1000"} {
		b.Run(strings.TrimSuffix(page[1:], "?after=1000"), func(b *testing.B) {
			store, err := artifacts.Open(filepath.Join(b.TempDir(), "artifacts"), "bench")
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			bw, err := runtimetest.Browser()
			if err != nil {
				b.Fatal(err)
			}
			rt := runtimetest.OpenWith(b, runtimetest.Options{CDPURL: bw.WebSocketURL(), AllowedOrigins: []string{site.URL},
				Evidence: &runtime.EvidenceOptions{Store: store, RunID: "bench", Owner: "bench"}})
			if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + page}); err != nil {
				b.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond) // /hang spins from 1 s after load, after the navigation
			var took []time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				res, err := transport.Dispatch(bg, rt, transport.CaptureEvidence{RunID: "bench", Operation: transport.OpObserve, BudgetMs: int(budgets.FailureEvidence().Default.Milliseconds())})
				took = append(took, time.Since(t0))
				if err != nil {
					b.Fatalf("capture: %v", err)
				}
				if page == "/echo" && len(res.Artifacts) != 4 {
					b.Fatalf("normal page: %d artifacts, unavailable %+v", len(res.Artifacts), res.Unavailable)
				}
			}
			b.StopTimer()
			longest := took[0]
			for _, d := range took {
				longest = max(longest, d)
			}
			b.ReportMetric(float64(median(took).Milliseconds()), "median-ms")
			b.ReportMetric(float64(longest.Milliseconds()), "max-ms")
		})
	}
}
