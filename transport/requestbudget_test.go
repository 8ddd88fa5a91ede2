package transport

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
)

// budgetHandler records the request budget each call's context carries.
type budgetHandler struct {
	mu   sync.Mutex
	seen []time.Duration
}

func (h *budgetHandler) Handle(ctx context.Context, op Operation, _ *OperationContext) (Result, error) {
	h.mu.Lock()
	h.seen = append(h.seen, RequestBudget(ctx))
	h.mu.Unlock()
	return &ListTabsResult{}, nil
}

// TestServeTimeoutMs: a frame's timeoutMs reaches the handler as the call's request budget,
// up to the 120 s ceiling; over it or negative is refused budget_exceeded at "timeoutMs".
func TestServeTimeoutMs(t *testing.T) {
	h := &budgetHandler{}
	p := startPeer(t, h)
	for _, c := range []struct {
		timeout string
		want    time.Duration // 0: refused
	}{
		{``, budgets.Request().Default},
		{`,"timeoutMs":0`, budgets.Request().Default},
		{`,"timeoutMs":15000`, 15 * time.Second},
		{`,"timeoutMs":120000`, budgets.Request().Ceiling},
		{`,"timeoutMs":120001`, 0},
		{`,"timeoutMs":-1`, 0},
	} {
		h.mu.Lock()
		h.seen = nil
		h.mu.Unlock()
		p.send(t, `{"v":1,"id":"b","op":"listTabs"`+c.timeout+`}`)
		rf := p.response(t)
		if c.want == 0 {
			if rf.ID != "b" || rf.Error == nil || rf.Error.Code != CodeBudgetExceeded || rf.Error.Path != "timeoutMs" || rf.Error.MutationState != NotAttempted {
				t.Fatalf("%s: want budget_exceeded at timeoutMs, got %+v", c.timeout, rf.Error)
			}
			if !strings.Contains(rf.Error.Message, "120000") {
				t.Errorf("%s: the message does not name the ceiling: %q", c.timeout, rf.Error.Message)
			}
			continue
		}
		h.mu.Lock()
		seen := h.seen
		h.mu.Unlock()
		if rf.Error != nil || len(seen) != 1 || seen[0] != c.want {
			t.Fatalf("%s: error %+v, handler saw budgets %v, want %s", c.timeout, rf.Error, seen, c.want)
		}
	}
}

// TestConnSendsTimeoutMs: the request budget on a call's context goes on the wire as the
// frame's timeoutMs (nothing when unset), and one over the ceiling is refused before
// anything is sent.
func TestConnSendsTimeoutMs(t *testing.T) {
	c := startFakeWorker(t)
	bg := context.Background()
	for _, tc := range []struct {
		ctx  context.Context
		want string
	}{
		{bg, "0"},
		{WithRequestBudget(bg, 15*time.Second), "15000"},
		{WithRequestBudget(bg, budgets.Request().Ceiling), "120000"},
	} {
		res, err := Dispatch(tc.ctx, c, ListTabs{})
		if err != nil || len(res.Tabs) != 1 || res.Tabs[0].Title != tc.want {
			t.Fatalf("want timeoutMs %s on the wire, got %+v %v", tc.want, res, err)
		}
	}
	for _, d := range []time.Duration{budgets.Request().Ceiling + time.Millisecond, -time.Second} {
		_, err := Dispatch(WithRequestBudget(bg, d), c, ListTabs{})
		var oe *OperationError
		if !errors.As(err, &oe) || oe.Code != CodeBudgetExceeded || oe.Path != "timeoutMs" || oe.MutationState != NotAttempted {
			t.Fatalf("%s: want budget_exceeded at timeoutMs, got %v", d, err)
		}
	}
	// The refused calls wrote nothing: the worker still answers the next one in step.
	if res, err := Dispatch(bg, c, ListTabs{}); err != nil || res.Tabs[0].Title != "0" {
		t.Fatalf("after refusals: %+v %v", res, err)
	}
}

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
		{&Assert{}, budgets.ReadWait().Default + margin},
		{&Observe{}, budgets.Request().Default},
		{&WaitPopup{}, budgets.Request().Default},
		{&CaptureEvidence{}, budgets.Screenshot().Default + margin},
		{&CaptureEvidence{BudgetMs: 500}, budgets.Screenshot().Floor + margin},
		{&CaptureEvidence{BudgetMs: 30000}, 30*time.Second + margin},
		{&Download{}, budgets.Download().Default + margin},
		{&Download{TimeoutMs: 45000}, 45*time.Second + margin},
	} {
		if got := deadlineFor(c.op, long); got != c.want {
			t.Errorf("%s %+v: deadline %s, want %s", c.op.OpName(), c.op, got, c.want)
		}
	}
	if got := deadlineFor(&Act{}, budgets.Request().Default); got != budgets.Request().Default+margin {
		t.Errorf("act under the default budget: %s", got)
	}
}
