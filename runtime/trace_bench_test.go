package runtime_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// BenchmarkTraceStep measures one step trace capture (CaptureTrace: captureEvidence kept in
// memory) on the fixture's sign-in form, against its parts alone: a redacted screenshot and
// an outline, and against the console and network summaries a step that cannot change the
// page is given instead. It reports the median in ms.
func BenchmarkTraceStep(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
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
	if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/form"}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"trace", func() error { _, err := rt.CaptureTrace(bg, "", transport.OpAct); return err }},
		// What a step that cannot change the page costs: its console and network summaries.
		{"diagnostics", func() error {
			_, err := rt.CaptureTrace(bg, "", transport.OpAssert, transport.PartConsole, transport.PartNetwork)
			return err
		}},
		{"screenshot", func() error { _, err := transport.Dispatch(bg, rt, transport.Screenshot{}); return err }},
		{"observe", func() error { _, err := transport.Dispatch(bg, rt, transport.Observe{}); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var took []time.Duration
			for range b.N {
				t0 := time.Now()
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
			}
			b.ReportMetric(float64(median(took).Microseconds())/1000, "median-ms")
		})
	}
}
