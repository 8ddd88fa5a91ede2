package transport

import (
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestCaptureDeadline: screenshot's budgetMs sets its deadline as captureEvidence's does, and
// every row's Deadline takes its own zero request (a row given another request type's
// Deadline fails here, not on its first call).
func TestCaptureDeadline(t *testing.T) {
	const margin = 2 * time.Second
	for _, c := range []struct {
		op   Operation
		want time.Duration
	}{
		{&Screenshot{}, budgets.Screenshot().Default + margin},
		{&Screenshot{BudgetMs: 500}, budgets.Screenshot().Floor + margin},
		{&Screenshot{BudgetMs: 30000}, 30*time.Second + margin},
		{&CaptureEvidence{BudgetMs: 30000}, 30*time.Second + margin},
	} {
		if got := DeadlineFor(c.op, time.Second); got != c.want {
			t.Errorf("%s %+v: deadline %s, want %s", c.op.OpName(), c.op, got, c.want)
		}
	}
	for _, s := range Ops() {
		if d := DeadlineFor(s.New(), time.Second); d <= 0 {
			t.Errorf("%s: deadline %s", s.Name, d)
		}
	}
}
