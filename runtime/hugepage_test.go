package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/process/proctest"
	"github.com/fastbrowser/fastbrowser/runtime/runtimetest"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestObserveHugePage: on pages of 50 000 elements, flat (one parent of 25 000 paragraphs)
// and deep (a thousand sections), observe answers within its budget with a truncated outline
// of the page's start, and the worker's peak resident size stays under its ceiling: the
// budgets bound the work and memory, not only the output.
func TestObserveHugePage(t *testing.T) {
	// Not parallel: loading 50 000 elements takes seconds of renderer CPU, and beside the
	// package's parallel tests on 2 CPUs the navigation ran out of its 10 s budget.
	site := runtimetest.Fixture()
	defer site.Close()
	for _, shape := range []string{"flat", "deep"} {
		t.Run(shape, func(t *testing.T) {
			rt := runtimetest.Open(t)
			if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/huge?n=50000&shape=" + shape}); err != nil {
				t.Fatal(err)
			}
			ob, err := transport.Dispatch(bg, rt, transport.Observe{MaxNodes: 10})
			if err != nil {
				t.Fatalf("observe: %v", err)
			}
			if !ob.Truncated {
				t.Errorf("a 50 000-element page gave an outline not marked truncated:\n%s", ob.Text)
			}
			if n := strings.Count(ob.Text, "\n"); n > 10+1 {
				t.Errorf("%d outline lines for maxNodes 10", n)
			}
			if hwm := proctest.PeakRSS(t, rt.WorkerPid()); hwm > budgets.WorkerMemoryCeiling {
				t.Errorf("the worker peaked at %d MiB, over its %d MiB ceiling", hwm>>20, budgets.WorkerMemoryCeiling>>20)
			}
		})
	}
}

// BenchmarkObserveHugePage measures observe {maxNodes:10} on the 50 000-element pages (the
// first observe of each document: the browser builds its accessibility tree) and the
// worker's peak resident size, as medians over b.N sessions.
func BenchmarkObserveHugePage(b *testing.B) {
	site := runtimetest.Fixture()
	defer site.Close()
	for _, shape := range []string{"flat", "deep"} {
		b.Run(shape, func(b *testing.B) {
			var took []time.Duration
			var peak []time.Duration // peak RSS in bytes, kept as durations to reuse median
			for range b.N {
				rt := runtimetest.Open(b)
				if _, err := transport.Dispatch(bg, rt, transport.Navigate{URL: site.URL + "/huge?n=50000&shape=" + shape}); err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				if _, err := transport.Dispatch(bg, rt, transport.Observe{MaxNodes: 10}); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(t0))
				peak = append(peak, time.Duration(proctest.PeakRSS(b, rt.WorkerPid())))
				if err := rt.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(median(took).Milliseconds()), "observe-ms")
			b.ReportMetric(float64(median(peak))/(1<<20), "worker-peak-MiB")
		})
	}
}
