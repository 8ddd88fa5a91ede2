package transport

import (
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// TestDeadlineFor: a per-call request budget moves the transport deadline of act and of the
// calls without a budget of their own, and of nothing else; captureEvidence's budgetMs gets
// the 2 s screenshot floor.
func TestDeadlineFor(t *testing.T) {
	const margin = 2 * time.Second
	long := 100 * time.Second
	for _, c := range []struct {
		op   Operation
		want time.Duration
	}{
		{&Act{}, long + margin},
		{&ListTabs{}, long},
		{&CloseTab{Tab: "T"}, long},
		{&Navigate{URL: "http://a.test/"}, budgets.Navigation().Default + margin},
		{&Read{}, budgets.ReadWait().Default + margin},
		{&Assert{}, budgets.Expect().Default + margin},
		{&Assert{TimeoutMs: 30000}, 30*time.Second + margin},
		{&Observe{}, budgets.Request().Default},
		{&WaitPopup{}, budgets.Request().Default},
		{&CaptureEvidence{}, budgets.Screenshot().Default + margin},
		{&CaptureEvidence{BudgetMs: 500}, budgets.Screenshot().Floor + margin},
		{&CaptureEvidence{BudgetMs: 30000}, 30*time.Second + margin},
		{&Download{}, budgets.Download().Default + margin},
		{&Download{TimeoutMs: 45000}, 45*time.Second + margin},
	} {
		if got := DeadlineFor(c.op, long); got != c.want {
			t.Errorf("%s %+v: deadline %s, want %s", c.op.OpName(), c.op, got, c.want)
		}
	}
	if got := DeadlineFor(&Act{}, budgets.Request().Default); got != budgets.Request().Default+margin {
		t.Errorf("act under the default budget: %s", got)
	}
}
