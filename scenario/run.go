package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hashicorp/go-multierror"

	"github.com/fastbrowser/fastbrowser/artifacts"
	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/runtime/model"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Env is what the runner needs from its caller.
type Env struct {
	// Open starts a browser session for one scenario (a *runtime.Runtime; a Suite opens it in
	// the run's browser). The runner closes it.
	Open func(ctx context.Context, spec SessionSpec) (Session, error)
	// Lookup reads the host environment for {"env":…} values (nil: os.LookupEnv).
	Lookup func(string) (string, bool)
	// Log receives fixture-server and hook output. Nil discards. A bounded copy of each
	// hook's and the managed server's output is kept whatever Log is (see Store).
	Log io.Writer
	// BeforeClose, when set, runs after the operations and before the browser session
	// closes, with the run's context and the report so far (replay --keep-open waits here).
	BeforeClose func(ctx context.Context, rep *ScenarioReport, rt Session)
	// Store and RunID, when both are set, receive the scenario's diagnostics at its end,
	// after the server stopped: one "log" artifact per hook or managed server that wrote
	// any output (its first and last bytes when it wrote more than fits), owned by the
	// scenario id and listed in ScenarioReport.Diagnostics.
	Store *artifacts.Store
	RunID string
	// Scrub masks secrets in the diagnostics before they are stored (nil: as they are).
	Scrub func([]byte) []byte
	// OperationsEnded, when set, is called once the operations ended, if all that is left
	// is closing the browser session: no BeforeClose, no cleanup hook and no server of its
	// own to stop. A Suite starts the next scenario then, while this one's session closes
	// (its report still waits for the close and says how it went).
	OperationsEnded func()
	// Trace is the run's --trace ("": off). FinalAttempt says no retry follows this
	// attempt whatever its outcome (TraceOnFailure keeps only a final result's trace).
	Trace        TraceMode
	FinalAttempt bool
	// shared, set by a Suite, is the run's instance of the scenario's managed server: the
	// scenario uses it instead of starting its own, and never stops it (its last user does).
	shared *sharedServer
}

// runState carries one scenario's run.
type runState struct {
	l     *Loaded
	env   Env
	start time.Time
	rep   *ScenarioReport
	logs  []*outputLog   // hook and server output, in the order the sources started
	trace *traceRecorder // the step trace being recorded (nil: none)
}

func (s *runState) event(kind, name, status string) {
	s.rep.Events = append(s.rep.Events, Event{AtMs: time.Since(s.start).Milliseconds(), Kind: kind, Name: name, Status: status})
}

// output starts the bounded log of one more source.
func (s *runState) output(source string) *outputLog {
	o := newOutputLog(source)
	s.logs = append(s.logs, o)
	return o
}

// hook runs one hook and records its event.
func (s *runState) hook(ctx context.Context, name string, c *Command) error {
	err := runHook(ctx, name, c, s.l.Dir, s.env.Lookup, s.env.Log, s.output(name+" hook"))
	if err != nil {
		s.event("hook", name, "failed")
		return err
	}
	s.event("hook", name, "ok")
	return nil
}

// Run runs one scenario in DESIGN.md's order: the scenario budget starts → setup hook →
// server start and readiness → reset hook → operations → finally: close the runtime,
// cleanup hook while the server still runs, bounded server stop, diagnostics stored. It
// never panics on a scenario's behalf and always returns a complete report.
//
// Events, in order, as far as the scenario got: hook.setup; server.start (managed only:
// ok, failed, reused, or shared when a Suite's shared server was already started for an
// earlier scenario) and server.ready; hook.reset; runtime.relaunch (Env.Open relaunched a
// dead browser); runtime.open; then finally
// runtime.close, hook.cleanup and server.stop (whenever a managed server was started, also
// when it never became ready; for a shared server, only in the report of the scenario whose
// end stopped it).
func Run(ctx context.Context, l *Loaded, env Env) ScenarioReport {
	if env.Log == nil {
		env.Log = io.Discard
	}
	s := &runState{l: l, env: env, start: time.Now(),
		rep: &ScenarioReport{ID: l.ID, Project: l.Project, Variables: l.Variables, Description: l.Description, Tags: l.Tags, File: l.Path, SHA256: l.SHA256, Fragments: l.Fragments, Model: modelInfo(l.Model), Status: StatusPassed, Events: []Event{},
			// Until a session opens only the checks before dispatch exist; the session says
			// what enforces its policy (browser interception, and the egress proxy).
			Enforcement: []string{"browser"}}}
	for i := range l.Operations {
		s.rep.Operations = append(s.rep.Operations, newOperationReport(i, &l.Operations[i]))
	}
	if env.Trace != "" && env.Trace != TraceOff {
		s.trace = newTraceRecorder()
	}
	var ms int64
	if l.Budgets != nil {
		ms = l.Budgets.TimeoutMs
	}
	budget, _ := budgets.ScenarioRun().ResolveMs(ms) // validated at parse
	sctx, cancel := context.WithTimeout(withScenarioBudget(ctx, budget, ms), budget)
	defer cancel()

	var server *fixtureServer
	var rt Session
	firstErr := s.body(sctx, &server, &rt)
	// Only an interrupt before the operations ended makes the scenario interrupted: the
	// Ctrl-C that ends a BeforeClose wait (replay --keep-open) changes no outcome.
	interrupted := ctx.Err() != nil

	if env.OperationsEnded != nil && env.BeforeClose == nil && (l.Hooks == nil || l.Hooks.Cleanup == nil) && (server == nil || server.proc == nil) {
		env.OperationsEnded()
	}

	// finally: every step runs, each bounded on its own, and errors are collected without
	// replacing the first one.
	var finallyErrs *multierror.Error
	if rt != nil && env.BeforeClose != nil {
		env.BeforeClose(ctx, s.rep, rt)
	}
	if rt != nil {
		if err := rt.Close(); err != nil {
			finallyErrs = multierror.Append(finallyErrs, scenarioError(transport.CodeInternal, "closing the browser session failed"))
			s.event("runtime", "close", "failed")
		} else {
			s.event("runtime", "close", "ok")
		}
	}
	if h := l.Hooks; h != nil && h.Cleanup != nil {
		// The cleanup hook runs even when the scenario budget is spent or the run was
		// interrupted, within its own budget.
		if err := s.hook(context.Background(), "cleanup", h.Cleanup); err != nil {
			finallyErrs = multierror.Append(finallyErrs, err)
		}
	}
	if server != nil && server.proc != nil {
		if err := server.stop(); err != nil {
			finallyErrs = multierror.Append(finallyErrs, scenarioError(transport.CodeInternal, "the fixture server could not be stopped"))
			s.event("server", "stop", "failed")
		} else {
			s.event("server", "stop", "ok")
		}
	}
	s.storeDiagnostics()

	switch {
	case firstErr != nil:
		s.rep.Status = StatusError
		s.rep.Error = transport.AsOperationError("", firstErr)
		if interrupted {
			s.rep.Status = StatusInterrupted
		}
	case finallyErrs.ErrorOrNil() != nil && s.rep.Status == StatusPassed:
		s.rep.Status = StatusError
		s.rep.Error = transport.AsOperationError("", finallyErrs.Errors[0])
	}
	if s.rep.Status == StatusFailed && interrupted {
		s.rep.Status = StatusInterrupted
	}
	s.finishTrace(ctx.Err() != nil)
	s.rep.DurationMs = time.Since(s.start).Milliseconds()
	return *s.rep
}

// storeDiagnostics writes one "log" artifact per source that wrote output, scrubbed, and
// lists them on the report. It is best effort: a store that refuses one is noted in the
// log and changes nothing else.
func (s *runState) storeDiagnostics() {
	if s.env.Store == nil || s.env.RunID == "" {
		return
	}
	for _, o := range s.logs {
		data, cut, ok := o.render(s.env.Scrub)
		if !ok {
			continue
		}
		meta, err := s.env.Store.Put(s.env.RunID, s.l.ID, "log", data, cut)
		if err != nil {
			fmt.Fprintf(s.env.Log, "fastbrowser: the %s output of scenario %s was not stored: %s\n", o.source, s.l.ID, artifacts.Cause(err))
			continue
		}
		s.rep.Diagnostics = append(s.rep.Diagnostics, meta)
	}
}

// body runs everything before finally. It returns an error only for failures outside
// operations (hooks, server, launch, budget); an operation failure is recorded in the
// report and ends the body with nil. A managed server it started is left in *server, also
// when it never became ready, for finally to stop after the cleanup hook.
func (s *runState) body(ctx context.Context, server **fixtureServer, rt *Session) error {
	l := s.l
	if h := l.Hooks; h != nil && h.Setup != nil {
		if err := s.hook(ctx, "setup", h.Setup); err != nil {
			return err
		}
	}
	if sh := s.env.shared; sh != nil {
		if err := sh.acquire(ctx, s); err != nil {
			return err
		}
	} else if l.Fixture != nil && l.Fixture.Server != nil {
		spec := l.Fixture.Server
		srv := &fixtureServer{}
		if spec.Mode == ModeManaged {
			started, reused, err := startManaged(ctx, spec, l.Dir, s.env.Lookup, s.env.Log, s.output("server"))
			switch {
			case err != nil:
				s.event("server", "start", "failed")
				return budgetOr(ctx, err)
			case reused:
				s.event("server", "start", "reused")
			default:
				s.event("server", "start", "ok")
			}
			srv, *server = started, started
		}
		if err := awaitReady(ctx, spec, srv); err != nil {
			s.event("server", "ready", "failed")
			return err
		}
		s.event("server", "ready", "ok")
	}
	if h := l.Hooks; h != nil && h.Reset != nil {
		if err := s.hook(ctx, "reset", h.Reset); err != nil {
			return err
		}
	}
	spec := l.sessionSpec()
	spec.Event = s.event
	r, err := s.env.Open(ctx, spec)
	if err != nil {
		s.event("runtime", "open", "failed")
		return budgetOr(ctx, err)
	}
	*rt = r
	if a, ok := r.(interface{ openedAheadMs() int64 }); ok {
		s.rep.SessionOpenedAheadMs = a.openedAheadMs()
	}
	s.rep.Enforcement = r.Enforcement()
	s.event("runtime", "open", "ok")
	return s.operations(ctx, r)
}

func (s *runState) operations(ctx context.Context, rt Session) error {
	results := make([]transport.Result, len(s.l.Operations))
	var soft []int // the soft assertions that failed, in order
	var initial string
	if s.usesInitialTab() {
		lt, err := transport.Dispatch(ctx, rt, transport.ListTabs{})
		if err != nil {
			return transport.AsOperationError("", err)
		}
		initial = lt.Selected
	}
	for i, op := range s.l.Operations {
		or := &s.rep.Operations[i]
		if ctx.Err() != nil {
			return ctxEnded(ctx, fmt.Sprintf("before operations[%d]", i))
		}
		started := time.Now()
		var res transport.Result
		var err error
		var skipped bool
		h := &opRun{lookup: s.env.Lookup}
		res, skipped, err = runOperation(op.requestBudget(ctx), rt, &op, s.l.Operations, results, initial, h)
		or.Healed = h.healed
		or.DurationMs = time.Since(started).Milliseconds()
		if skipped {
			or.SkipReason = SkipReason(&op)
			continue
		}
		or.Posture = transport.PostureOf(err)
		if err != nil {
			or.failed(op.Op, err)
			or.CodeFrame = op.written.codeFrame()
			s.traceStep(ctx, rt, i, started, nil)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				// The scenario budget ended the operation: that is the scenario's error
				// (status error, as for any budget end), the operation's failure its cause.
				return ctxEnded(ctx, fmt.Sprintf("during operations[%d] (%s)", i, op.Op))
			}
			s.rep.Status = StatusFailed
			if op.Soft && softFailure(or.Error) {
				soft = append(soft, i)
				continue
			}
			s.softFailed(soft)
			return nil
		}
		or.Blocked, or.Dialogs = transport.BlockedOf(res), transport.DialogsOf(res)
		or.Status, results[i] = StatusPassed, res
		or.Result = encodeResult(res)
		if nr, ok := res.(*transport.NavigateResult); ok { // navigate and reload
			or.HTTPStatus = nr.Status
		}
		s.traceStep(ctx, rt, i, started, res)
	}
	s.softFailed(soft)
	return nil
}

// softFailure says whether a soft assertion's failure lets the scenario go on: only a
// verdict about the page (the assertion did not hold, its element was not there). A crashed
// browser, a spent budget or a refusal ends the scenario as for any operation.
func softFailure(e *transport.OperationError) bool {
	return e != nil && (e.Code == transport.CodeAssertionFailed || e.Code == transport.CodeElementNotFound)
}

// softFailed makes the scenario's error name its soft assertions that failed (indexes in
// soft), the first one's message in full: "2 soft assertions failed: operations[3]
// (assert): …". Each failure stays on its operation; the scenario is already failed.
func (s *runState) softFailed(soft []int) {
	if len(soft) == 0 {
		return
	}
	first := &s.rep.Operations[soft[0]]
	what := "1 soft assertion failed"
	if len(soft) > 1 {
		what = fmt.Sprintf("%d soft assertions failed", len(soft))
	}
	s.rep.Error = transport.NewError("", transport.PhaseVerify, first.Error.Code, transport.RetryNever, transport.NotAttempted,
		"%s: operations[%d] (%s): %s", what, first.Index, first.Op, first.Error.Message)
}

// failed records an operation's failure: the error as it was, and the failure evidence the
// runtime kept beside it listed on the operation, once.
func (or *OperationReport) failed(op string, err error) {
	or.Status = StatusFailed
	oe := *transport.AsOperationError(op, err)
	or.Error = &oe
	or.Evidence, or.EvidenceUnavailable = transport.EvidenceOf(err)
	or.Blocked, or.Dialogs = or.Error.Blocked, or.Error.Dialogs
}

// skippedByWhen is the skipReason of an operation whose when did not hold;
// skippedByJudgedWhen, of one whose condition in words the model judged not to hold.
const (
	skippedByWhen       = "its when condition did not hold"
	skippedByJudgedWhen = "its when condition, judged by the model, did not hold"
)

// runOperation runs ops[i] (op) after its when, with its tab and context resolved from the
// earlier operations' results: skipped (and no result, no error) when the condition did not
// hold. h says how an act with words healed (actwords.go).
func runOperation(ctx context.Context, rt transport.Caller, op *Operation, ops []Operation, results []transport.Result, initial string, h *opRun) (transport.Result, bool, error) {
	ok, turns, err := op.whenHolds(ctx, rt, ops, results, initial)
	h.whenTurns = turns
	if err != nil || !ok {
		return nil, err == nil, err
	}
	if op.step != nil {
		res, err := runStep(ctx, rt, op.step)
		return res, false, err
	}
	var ref *TabRef
	if op.req != nil { // nil only for an act in words without a recording
		ref = op.req.tab
	}
	tab, err := resolveTab(ref, ops, results, initial)
	if err != nil {
		return nil, false, err
	}
	oc := contextFor(op.Context, ops, results)
	if op.Context != nil && oc == nil {
		// Validation proved it names an earlier narrowOriginPolicy, and a failed one ends the
		// run (a session keeps none): it was skipped. Running under the wider policy
		// instead would undo the narrowing silently.
		return nil, false, transport.NewError(op.Op, transport.PhaseValidate, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted,
			"the narrowOriginPolicy this operation's context names was skipped (its when did not hold): there is no narrowed policy to run under").WithPath("context.operation")
	}
	if op.Words != "" {
		res, err := h.runWords(ctx, rt, op, tab, oc)
		return res, false, err
	}
	res, err := rt.Call(ctx, op.req.bind(tab), oc)
	return res, false, err
}

// whenHolds reads op's when, if it has one: true when there is none or it holds. A judged
// condition looks at the operation's own tab (resolved from the earlier results; the
// selected tab when it names none), an assertion at the selected tab.
func (op *Operation) whenHolds(ctx context.Context, rt transport.Caller, ops []Operation, results []transport.Result, initial string) (bool, []transport.TurnReceipt, error) {
	if op.When == nil {
		return true, nil, nil
	}
	tab := ""
	if op.When.Judged() && op.req != nil {
		t, err := resolveTab(op.req.tab, ops, results, initial)
		if err != nil {
			return false, nil, err
		}
		tab = t
	}
	return op.When.holds(ctx, rt, tab)
}

// SkipReason is why op, which was reached, was skipped: its when did not hold.
func SkipReason(op *Operation) string {
	if op.When.Judged() {
		return skippedByJudgedWhen
	}
	return skippedByWhen
}

func (s *runState) usesInitialTab() bool {
	for _, op := range s.l.Operations {
		if op.req == nil {
			continue
		}
		if ref := op.req.tab; ref != nil && ref.Source == "initial" {
			return true
		}
	}
	return false
}

// requestBudget puts the operation's timeoutMs, when it has one, on the context of its calls.
func (op *Operation) requestBudget(ctx context.Context) context.Context {
	if op.TimeoutMs == 0 {
		return ctx
	}
	return transport.WithRequestBudget(ctx, time.Duration(op.TimeoutMs)*time.Millisecond)
}

// resolveTab turns a file's tab reference into the runtime handle the referenced earlier
// operation produced ("" = the selected tab).
func resolveTab(ref *TabRef, ops []Operation, results []transport.Result, initial string) (string, error) {
	if ref == nil {
		return "", nil
	}
	if ref.Source == "initial" {
		return initial, nil
	}
	j := refIndex(*ref.Operation, ops)
	notFound := func(msg string) error {
		return transport.NewError("", transport.PhaseValidate, transport.CodeTabNotFound, transport.RetryNever, transport.NotAttempted, "%s", msg).WithPath("request.tab")
	}
	// Validation proved ops[j] is the row whose TabResult ref names; a skipped one left no result.
	r, ok := results[j].(transport.TabResult)
	if !ok {
		return "", notFound("the referenced operation produced no tab")
	}
	idx := 0
	if ref.Index != nil {
		idx = *ref.Index
	}
	tab, ok := r.ResultTab(idx)
	if !ok { // only a listing takes an index (listedTab)
		return "", notFound("the referenced " + ops[j].Op + " result has no tab at that index")
	}
	return tab, nil
}

// encodeResult keeps the operation's result in the report as JSON, without HTML escaping.
func encodeResult(res transport.Result) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// contextFor returns the narrowed context an operation applies (nil: the base origins).
func contextFor(ref *ContextRef, ops []Operation, results []transport.Result) *transport.OperationContext {
	if ref == nil {
		return nil
	}
	if r, ok := results[refIndex(ref.Operation, ops)].(*transport.NarrowOriginPolicyResult); ok {
		c := r.Context
		return &c
	}
	return nil
}

// refIndex is the index of the operation a validated reference names.
func refIndex(o OpRef, ops []Operation) int {
	if o.Index != nil {
		return *o.Index
	}
	for k, op := range ops {
		if op.ID == o.ID {
			return k
		}
	}
	return 0 // unreachable: validation proved the id exists
}

// SessionSpec is what a scenario asks of its browser session.
type SessionSpec struct {
	ID              string             // the scenario id: the owner of its evidence
	Origins         []string           // the base origin policy
	Subresources    string             // transport.SubresourcesFail or SubresourcesReport
	ServiceWorkers  string             // "block" or "allow"
	WebRTC          string             // "block" or "allow"
	Viewport        transport.Viewport // zero: the browser's own
	TestIDAttribute string             // "": data-testid
	Redaction       []transport.RedactionRule
	Model           *model.Config // nil: none (task and extract fail model_required)
	// Event records a lifecycle event of the scenario (Env.Open reports a browser relaunch
	// with it: kind "runtime", name "relaunch"); set by Run.
	Event func(kind, name, status string)
}

func (l *Loaded) sessionSpec() SessionSpec {
	spec := SessionSpec{ID: l.ID, Origins: l.Origins, Subresources: transport.SubresourcesFail, ServiceWorkers: "block", WebRTC: "block", Model: l.Model}
	if l.Redaction != nil {
		spec.Redaction = l.Redaction.Rules
	}
	if l.Viewport != nil {
		spec.Viewport = *l.Viewport
	}
	spec.TestIDAttribute = l.TestIDAttribute
	if e := l.Egress; e != nil {
		if e.Subresources != "" {
			spec.Subresources = string(e.Subresources)
		}
		if e.ServiceWorkers != "" {
			spec.ServiceWorkers = string(e.ServiceWorkers)
		}
		if e.WebRTC != "" {
			spec.WebRTC = string(e.WebRTC)
		}
	}
	return spec
}
