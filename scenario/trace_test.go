package scenario

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastbrowser/fastbrowser/artifacts"

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

// traceFake is a session that only captures: each capture returns the parts asked for (all
// four when none), a screenshot only while shots is true, and records what was asked.
type traceFake struct {
	shots bool
	asked [][]string
}

func (f *traceFake) Call(context.Context, transport.Operation, *transport.OperationContext) (transport.Result, error) {
	return nil, errors.New("not a runtime")
}
func (f *traceFake) Enforcement() []string { return nil }
func (f *traceFake) Close() error          { return nil }
func (f *traceFake) CaptureTrace(_ context.Context, _, _ string, parts ...string) (*runtime.TraceCapture, error) {
	f.asked = append(f.asked, parts)
	tc := &runtime.TraceCapture{}
	for _, p := range transport.EvidenceParts {
		if len(parts) > 0 && !slices.Contains(parts, p) {
			continue
		}
		if p == transport.PartScreenshot && !f.shots {
			tc.Unavailable = append(tc.Unavailable, transport.UnavailablePart{Part: p, Code: transport.CodeRedactionNotProven, Message: "not proven"})
			continue
		}
		tc.Parts = append(tc.Parts, runtime.TracePart{Kind: p, Data: []byte(p + " " + strconv.Itoa(len(f.asked)))})
	}
	return tc, nil
}

// TestTraceSkipsUnchangingSteps: a passed step that cannot change the selected tab (an
// assertion held at its first look, a read, a listTabs) is not captured again: only its
// console and network summaries are asked for, and it names the step whose picture stands
// for it. An assertion that held only after waiting, a selectTab and any mutating step are
// captured whole; so is a read-only step after a step that kept no picture. A failed
// read-only step keeps its failure evidence.
func TestTraceSkipsUnchangingSteps(t *testing.T) {
	steps := []struct {
		op     string
		res    transport.Result // nil: the step failed
		shots  bool             // the capture proves its redaction
		whole  bool             // want a whole capture
		sameAs int              // want SameAs (-1: none)
	}{
		{transport.OpNavigate, &transport.NavigateResult{}, true, true, -1},
		{transport.OpAssert, &transport.AssertResult{Passed: true, Attempts: 1}, true, false, 0},
		{transport.OpRead, &transport.ReadResult{}, true, false, 0},
		{transport.OpListTabs, &transport.ListTabsResult{}, true, false, 0},
		{transport.OpAssert, &transport.AssertResult{Passed: true, Attempts: 3}, true, true, -1},
		{transport.OpAssert, &transport.AssertResult{Passed: true, Attempts: 1}, true, false, 4},
		{transport.OpSelectTab, &transport.SelectTabResult{}, true, true, -1},
		{transport.OpAct, &transport.ActResult{}, false, true, -1},
		{transport.OpAssert, &transport.AssertResult{Passed: true, Attempts: 1}, true, true, -1},
		{transport.OpAssert, nil, true, false, -1},
		{transport.OpAssert, &transport.AssertResult{Passed: true, Attempts: 1}, true, false, 9},
	}
	f := &traceFake{}
	s := &runState{trace: newTraceRecorder(), rep: &ScenarioReport{}, start: time.Now()}
	for i, st := range steps {
		or := OperationReport{Index: i, Op: st.op, Status: StatusPassed}
		if st.res == nil {
			shot := artifacts.Meta{Kind: transport.PartScreenshot, Path: "s/r/e.png"}
			or.Status, or.Evidence = StatusFailed, []artifacts.Meta{shot}
		}
		s.rep.Operations = append(s.rep.Operations, or)
		f.shots = st.shots
		asked := len(f.asked)
		s.traceStep(context.Background(), f, i, time.Now(), st.res)
		got := s.trace.steps[i]
		switch {
		case st.res == nil:
			if len(f.asked) != asked || !got.step.FromEvidence || got.step.Screenshot == nil || got.step.SameAs != nil {
				t.Errorf("step %d (failed %s): captured %v, step %+v", i, st.op, f.asked[asked:], got.step)
			}
		case st.whole:
			if len(f.asked) != asked+1 || f.asked[asked] != nil || got.step.SameAs != nil {
				t.Errorf("step %d (%s): asked %v, sameAs %v; want a whole capture", i, st.op, f.asked[asked:], got.step.SameAs)
			}
		default:
			if len(f.asked) != asked+1 || !slices.Equal(f.asked[asked], []string{transport.PartConsole, transport.PartNetwork}) {
				t.Errorf("step %d (%s): asked %v, want the console and network only", i, st.op, f.asked[asked:])
			}
			if got.step.SameAs == nil || *got.step.SameAs != st.sameAs || !strings.Contains(got.step.ScreenshotUnavailable, "#"+strconv.Itoa(st.sameAs)) {
				t.Errorf("step %d (%s): sameAs %v (%q), want %d", i, st.op, got.step.SameAs, got.step.ScreenshotUnavailable, st.sameAs)
			}
			var kinds []string
			for _, p := range got.parts {
				kinds = append(kinds, p.Kind)
			}
			if !slices.Equal(kinds, []string{transport.PartConsole, transport.PartNetwork}) {
				t.Errorf("step %d (%s): parts %v", i, st.op, kinds)
			}
		}
	}
}
