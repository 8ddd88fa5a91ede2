//go:build linux

package chromium

import (
	"context"
	"testing"
	"time"
)

// BenchmarkLaunch measures a full launch (to the DevTools URL) and Close of a real Chromium.
func BenchmarkLaunch(b *testing.B) {
	var launching, closing time.Duration
	for b.Loop() {
		began := time.Now()
		br, err := Launch(context.Background(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		launched := time.Now()
		trackGroup(br.Pid())
		if err := br.Close(); err != nil {
			b.Fatal(err)
		}
		launching += launched.Sub(began)
		closing += time.Since(launched)
	}
	b.ReportMetric(float64(launching.Milliseconds())/float64(b.N), "launch-ms/op")
	b.ReportMetric(float64(closing.Milliseconds())/float64(b.N), "close-ms/op")
}
