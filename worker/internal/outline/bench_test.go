package outline_test

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/scenarios/fixture"
	"github.com/fastbrowser/fastbrowser/worker/internal/outline"
)

// BenchmarkBuildBig times Build alone on /big's AX tree, captured once from real Chromium,
// with the default budgets (the outline is truncated, as an observe of /big would be).
func BenchmarkBuildBig(b *testing.B) {
	srv := httptest.NewServer(fixture.Handler())
	defer srv.Close()
	tab := openTab(b, srv.URL+"/big")
	began := time.Now()
	frames := tab.frames(b)
	capture := time.Since(began) // the CDP side, once, for scale
	axNodes := 0
	for _, f := range frames {
		axNodes += len(f.Nodes)
	}
	opts := defaults(srv.URL + "/big")
	var text string
	b.ResetTimer()
	for b.Loop() {
		text = outline.Build(frames, opts).Text
	}
	b.ReportMetric(float64(len(text)), "text-bytes")
	b.ReportMetric(float64(axNodes), "ax-nodes")
	b.ReportMetric(float64(capture.Microseconds())/1000, "capture-ms")
}
