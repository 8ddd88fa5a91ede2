package worker

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestCallLogFolds: runs of equal looks are one line ("3 × …"); a log longer than
// budgets.CallLogLines keeps its head, its first and last runs, and "…" between.
func TestCallLogFolds(t *testing.T) {
	l := &callLog{head: "waiting for testId \"x\" to be visible"}
	for _, s := range []string{"element not found", "element not found", "hidden (display:none)", "hidden (display:none)", "hidden (display:none)", "visible"} {
		l.add(s)
	}
	want := []string{`waiting for testId "x" to be visible`, "2 × element not found", "3 × hidden (display:none)", "visible"}
	if got := l.out(); !slices.Equal(got, want) {
		t.Errorf("log %q, want %q", got, want)
	}
	long := &callLog{head: "h"}
	for i := range 50 {
		long.add(fmt.Sprintf("look %d", i))
	}
	got := long.out()
	if len(got) != budgets.CallLogLines || got[0] != "h" || got[1] != "look 0" || got[len(got)-1] != "look 49" || !slices.Contains(got, "…") {
		t.Errorf("long log: %d lines %q", len(got), got)
	}
}
