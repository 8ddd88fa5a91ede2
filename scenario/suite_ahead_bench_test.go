package scenario

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkLookAheadScenarios drives the look-ahead the way a run of n scenarios does (each
// starts, takes the session opened for it, and the next one is opened) with an open that
// returns at once, and reports the look-ahead's own cost per scenario. It pins that finding
// the next scenario to open does not rescan the started ones: ns/scenario stays flat from
// 20 to 1,000 scenarios (ci/bench-scale measures the whole run).
func BenchmarkLookAheadScenarios(b *testing.B) {
	for _, n := range []int{20, 200, 1000} {
		loaded := make([]*Loaded, n)
		for i := range loaded {
			loaded[i] = &Loaded{File: &File{ID: fmt.Sprintf("s%04d", i)}}
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				la := newLookAhead(context.Background(), loaded,
					func(context.Context, *Loaded, *aheadSession) (Session, error) { return &staleSession{}, nil },
					func() (func(), bool) { return func() {}, true })
				la.fill()
				for _, l := range loaded {
					if p := la.starting(l); p != nil {
						p.take(context.Background(), la, nil)
					}
					la.fill()
				}
				la.end()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/scenario")
		})
	}
}
