package runtime_test

import (
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
)

// BenchmarkOpenSession measures opening and closing one session (worker process, browser
// context, first tab) in an already running browser: the per-scenario cost of a run.
func BenchmarkOpenSession(b *testing.B) {
	bw, err := runtimetest.Browser()
	if err != nil {
		b.Fatal(err)
	}
	var open, closing []time.Duration
	for range b.N {
		t0 := time.Now()
		rt := runtimetest.OpenWith(b, runtimetest.Options{CDPURL: bw.WebSocketURL()})
		t1 := time.Now()
		if err := rt.Close(); err != nil {
			b.Fatal(err)
		}
		open, closing = append(open, t1.Sub(t0)), append(closing, time.Since(t1))
	}
	b.ReportMetric(float64(median(open).Milliseconds()), "open-ms")
	b.ReportMetric(float64(median(closing).Milliseconds()), "close-ms")
}
