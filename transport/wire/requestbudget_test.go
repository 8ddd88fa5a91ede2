package wire

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

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
			if rf.ID != "b" || rf.Error == nil || rf.Error.Code != transport.CodeBudgetExceeded || rf.Error.Path != "timeoutMs" || rf.Error.MutationState != transport.NotAttempted {
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
		{transport.WithRequestBudget(bg, 15*time.Second), "15000"},
		{transport.WithRequestBudget(bg, budgets.Request().Ceiling), "120000"},
	} {
		res, err := transport.Dispatch(tc.ctx, c, transport.ListTabs{})
		if err != nil || len(res.Tabs) != 1 || res.Tabs[0].Title != tc.want {
			t.Fatalf("want timeoutMs %s on the wire, got %+v %v", tc.want, res, err)
		}
	}
	for _, d := range []time.Duration{budgets.Request().Ceiling + time.Millisecond, -time.Second} {
		_, err := transport.Dispatch(transport.WithRequestBudget(bg, d), c, transport.ListTabs{})
		var oe *transport.OperationError
		if !errors.As(err, &oe) || oe.Code != transport.CodeBudgetExceeded || oe.Path != "timeoutMs" || oe.MutationState != transport.NotAttempted {
			t.Fatalf("%s: want budget_exceeded at timeoutMs, got %v", d, err)
		}
	}
	// The refused calls wrote nothing: the worker still answers the next one in step.
	if res, err := transport.Dispatch(bg, c, transport.ListTabs{}); err != nil || res.Tabs[0].Title != "0" {
		t.Fatalf("after refusals: %+v %v", res, err)
	}
}

// budgetHandler records the request budget each call's context carries.
type budgetHandler struct {
	mu   sync.Mutex
	seen []time.Duration
}

func (h *budgetHandler) Handle(ctx context.Context, op transport.Operation, _ *transport.OperationContext) (transport.Result, error) {
	h.mu.Lock()
	h.seen = append(h.seen, transport.RequestBudget(ctx))
	h.mu.Unlock()
	return &transport.ListTabsResult{}, nil
}
