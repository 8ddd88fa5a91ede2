package scenario

import (
	"strings"
	"testing"

	"github.com/fastbrowser/fastbrowser/runtime"
	"github.com/fastbrowser/fastbrowser/transport"
)

// TestTraceKept is Playwright's trace modes: which attempt's trace is kept, by its status and
// whether a retry may follow it.
func TestTraceKept(t *testing.T) {
	cases := []struct {
		mode    TraceMode
		status  string
		final   bool // no retry follows
		ctxEnd  bool
		keep    bool
		comment string
	}{
		{TraceOn, StatusPassed, true, false, true, "on keeps a pass"},
		{TraceOff, StatusFailed, true, false, false, "off keeps nothing"},
		{"", StatusFailed, true, false, false, "unset is off"},
		{TraceOnFailure, StatusPassed, true, false, false, "on-failure drops a pass"},
		{TraceOnFailure, StatusFailed, true, false, true, "on-failure keeps a final failure"},
		{TraceOnFailure, StatusError, true, false, true, "on-failure keeps a final error"},
		{TraceOnFailure, StatusFailed, false, false, false, "on-failure drops a failure a retry follows"},
		{TraceOnFailure, StatusInterrupted, false, true, true, "an interrupted attempt is never retried: final"},
		{TraceRetainOnFailure, StatusFailed, false, false, true, "retain-on-failure keeps a retried failure"},
		{TraceRetainOnFailure, StatusPassed, true, false, false, "retain-on-failure drops a pass"},
	}
	for _, c := range cases {
		s := &runState{env: Env{Trace: c.mode, FinalAttempt: c.final}, rep: &ScenarioReport{Status: c.status}}
		if got := s.keepsTrace(c.ctxEnd); got != c.keep {
			t.Errorf("%s: keepsTrace = %v", c.comment, got)
		}
	}
	for _, m := range []string{"off", "on", "on-failure", "retain-on-failure"} {
		if _, err := ParseTraceMode(m); err != nil {
			t.Errorf("ParseTraceMode(%q): %v", m, err)
		}
	}
	if _, err := ParseTraceMode("On"); err == nil {
		t.Error("ParseTraceMode accepted On")
	}
}

// TestTraceBudget: parts that do not fit what is left of the trace budget are not kept and
// the step says so (a screenshot's reason on screenshotUnavailable); smaller later parts
// that still fit are kept.
func TestTraceBudget(t *testing.T) {
	tr := &traceRecorder{left: 100}
	part := func(kind string, n int) runtime.TracePart {
		return runtime.TracePart{Kind: kind, Data: make([]byte, n)}
	}
	kept, miss := tr.fit([]runtime.TracePart{part("console", 30), part("screenshot", 80), part("outline", 60)}, nil)
	if len(kept) != 2 || kept[0].Kind != "console" || kept[1].Kind != "outline" || tr.left != 10 {
		t.Fatalf("kept %+v, left %d", kept, tr.left)
	}
	var st TraceStep
	st.unavailable(miss)
	if !strings.Contains(st.ScreenshotUnavailable, string(transport.CodeArtifactTooLarge)) || !strings.Contains(st.ScreenshotUnavailable, "trace budget") {
		t.Errorf("screenshotUnavailable = %q", st.ScreenshotUnavailable)
	}
	kept, miss = tr.fit([]runtime.TracePart{part("screenshot", 11), part("network", 10)}, nil)
	if len(kept) != 1 || kept[0].Kind != "network" || len(miss) != 1 || tr.left != 0 {
		t.Errorf("a later step kept %+v, missed %+v, left %d", kept, miss, tr.left)
	}
}

// TestTraceBudgetSharesEqualParts: a part equal to one held already (the same picture after
// an assertion that changed nothing) costs no budget.
func TestTraceBudgetSharesEqualParts(t *testing.T) {
	tr := &traceRecorder{left: 100}
	shot := runtime.TracePart{Kind: "screenshot", Data: []byte("the same picture, 31 bytes long")}
	for i := range 5 {
		kept, miss := tr.fit([]runtime.TracePart{shot}, nil)
		if len(kept) != 1 || len(miss) != 0 || tr.left != 100-31 {
			t.Fatalf("step %d: kept %d, missed %+v, left %d", i, len(kept), miss, tr.left)
		}
	}
	other := runtime.TracePart{Kind: "outline", Data: shot.Data} // another kind is another part
	if kept, _ := tr.fit([]runtime.TracePart{other}, nil); len(kept) != 1 || tr.left != 100-62 {
		t.Errorf("another kind with the same bytes: kept %d, left %d", len(kept), tr.left)
	}
}
