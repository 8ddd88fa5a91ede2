package runtime

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/budgets"
	"github.com/fastbrowser/fastbrowser/transport"
)

// Hosted tasks (docs/models.md "Hosted tasks"): beginTask runs task's loop in the
// background and answers at once; the host hears its receipts as events, refreshes its
// lease, cancels it, and finishes it for the sealed accounting. The loop is task's own
// (task.go); what a host adds is the admission point (taskadmit.go) and this bookkeeping.

var (
	_ = answers((*Runtime).beginTask)
	_ = answers((*Runtime).refreshTask)
	_ = answers((*Runtime).cancelTask)
	_ = answers((*Runtime).finishTask)
)

// hostedTasks are a session's tasks from beginTask until finishTask.
type hostedTasks struct {
	mu    sync.Mutex
	byID  map[string]*hostedTask
	next  int
	loops sync.WaitGroup // the loops still running (Close waits for them)
	// ctx ends every loop when the session closes.
	ctx  context.Context
	stop context.CancelFunc
}

// hostedTask is one task a host owns.
type hostedTask struct {
	r      *Runtime
	id     string
	events transport.Events
	lease  time.Duration // 0: no lease

	mu             sync.Mutex
	stop           error              // sticky: why the task admits nothing more
	stoppedBy      string             // transport.Stop…: who or what stopped it
	pending        string             // what is in flight ("" : nothing)
	cancelCall     context.CancelFunc // the model call in flight's
	renewed        time.Time          // the lease's start: beginTask, then each refresh
	facts          transport.TaskFacts
	accountChanged bool
	// badSample says why a refresh's facts sample cannot be trusted (sticky, as
	// accountChanged); lastSample is the newest sample time a refresh gave.
	badSample  string
	lastSample time.Time
	sealed     *transport.FinishTaskResult
	over       chan struct{} // closed when the loop settled
}

// now is the runtime's clock for leases (a test may replace it).
func (r *Runtime) now() time.Time {
	if r.clock != nil {
		return r.clock()
	}
	return time.Now()
}

func (r *Runtime) beginTask(ctx context.Context, req *transport.BeginTask, octx *transport.OperationContext) (transport.Result, error) {
	t, err := r.newTaskRun(&req.Task, octx)
	if err != nil {
		return nil, renamed(transport.OpBeginTask, err)
	}
	ht := r.hosted()
	ht.mu.Lock()
	defer ht.mu.Unlock()
	if len(ht.byID) >= budgets.HostedTasks {
		return nil, transport.NewError(transport.OpBeginTask, transport.PhaseDispatch, transport.CodeTaskBusy, transport.RetryNever, transport.NotAttempted,
			"the session holds %d tasks not yet finished; finishTask one first", len(ht.byID))
	}
	for _, h := range ht.byID {
		if !h.settled() {
			return nil, transport.NewError(transport.OpBeginTask, transport.PhaseDispatch, transport.CodeTaskBusy, transport.RetryNever, transport.NotAttempted,
				"task %s is still running in this session; one task owns a session at a time", h.id)
		}
	}
	ht.next++
	h := &hostedTask{r: r, id: "k" + strconv.Itoa(ht.next), events: transport.EventsOf(ctx), lease: time.Duration(req.LeaseMs) * time.Millisecond, renewed: r.now(), over: make(chan struct{})}
	t.host = h
	ht.byID[h.id] = h
	// The loop outlives this request: its own budget bounds it, and the session's close ends it.
	loop, cancel := context.WithTimeout(ht.ctx, transport.TaskBudget(&req.Task))
	if r.launched != nil && r.ownAlloc {
		// The browser is this session's alone: whoever attaches to it through its endpoint
		// from now on is a person (or a program) who can act in it, so the task stops.
		attach := r.launched.NextAttach()
		ht.loops.Add(1)
		go func() {
			defer ht.loops.Done()
			select {
			case <-attach:
				h.halt(transport.StopPerson, stopped(transport.CodeCancelled, "a person attached to the session's browser; the task stopped and the session stays its host's"))
			case <-h.over:
			}
		}()
	}
	ht.loops.Add(1)
	go func() {
		defer ht.loops.Done()
		defer cancel()
		res, err := t.run(loop)
		h.seal(t, res, err)
	}()
	return &transport.BeginTaskResult{Task: h.id}, nil
}

func (r *Runtime) refreshTask(_ context.Context, req *transport.RefreshTask, _ *transport.OperationContext) (transport.Result, error) {
	h, err := r.hostedTask(transport.OpRefreshTask, req.Task)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.facts.Account != "" && req.Facts.Account != h.facts.Account {
		h.accountChanged = true // sticky: the next admission stops the task
	}
	if why := h.checkSample(req.Facts.SampledAtMs, r.now()); why != "" && h.badSample == "" {
		h.badSample = why // sticky: the next admission stops the task
	}
	h.facts, h.renewed = req.Facts, r.now()
	return &transport.RefreshTaskResult{Task: h.id, LeaseMs: h.lease.Milliseconds()}, nil
}

func (r *Runtime) cancelTask(_ context.Context, req *transport.CancelTask, _ *transport.OperationContext) (transport.Result, error) {
	h, err := r.hostedTask(transport.OpCancelTask, req.Task)
	if err != nil {
		return nil, err
	}
	return &transport.CancelTaskResult{Task: h.id, Cancelled: h.halt(transport.StopHost, stopped(transport.CodeCancelled, "the host cancelled the task"))}, nil
}

func (r *Runtime) finishTask(_ context.Context, req *transport.FinishTask, _ *transport.OperationContext) (transport.Result, error) {
	h, err := r.hostedTask(transport.OpFinishTask, req.Task)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	sealed, pending := h.sealed, h.pending
	h.mu.Unlock()
	if sealed == nil {
		if pending == "" {
			pending = "its loop (an observation or a settlement)"
		}
		return nil, transport.NewError(transport.OpFinishTask, transport.PhaseDispatch, transport.CodeTaskBusy, transport.RetryNever, transport.NotAttempted,
			"task %s has %s in flight; finish it once it settled (a settled event), or cancelTask it first", h.id, pending)
	}
	ht := r.hosted()
	ht.mu.Lock()
	delete(ht.byID, h.id)
	ht.mu.Unlock()
	return sealed, nil
}

// halt stops the task for good with why (by, a transport.Stop… reason): nothing more is
// admitted, and a model call in flight is cancelled. False when the task had already
// settled or stopped.
func (h *hostedTask) halt(by string, why error) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stop != nil || h.sealed != nil {
		return false
	}
	h.stop, h.stoppedBy = why, by
	if h.cancelCall != nil {
		h.cancelCall()
	}
	return true
}

func (h *hostedTask) settled() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sealed != nil
}

// seal keeps the loop's end as the task's sealed accounting and says it settled.
func (h *hostedTask) seal(t *taskRun, res *transport.TaskResult, err error) {
	h.mu.Lock()
	stop := h.stop
	h.mu.Unlock()
	if err == nil && stop != nil {
		// Stopped while its last action was in flight: the action is accounted with its real
		// outcome, but the task did not complete under its host; it settles incomplete.
		err = asTask(stop, t.mutation)
	}
	out, err := t.outcome(res, err)
	s := &transport.FinishTaskResult{Task: h.id, Settlement: transport.SettlementComplete, Turns: t.turns, Actions: t.scrubbedActions()}
	if s.Actions == nil {
		s.Actions = []transport.TaskAction{}
	}
	if err != nil {
		oe := *transport.AsOperationError(transport.OpTask, err)
		s.Settlement, s.Error = transport.SettlementIncomplete, &oe
	} else if tr, ok := out.(*transport.TaskResult); ok {
		s.Result = tr
	}
	h.mu.Lock()
	if err != nil {
		s.StoppedBy = h.stoppedBy
	}
	h.sealed = s
	h.mu.Unlock()
	close(h.over)
	e := transport.TaskEvent{Task: h.id, Kind: transport.EventSettled, Settlement: s.Settlement, StoppedBy: s.StoppedBy}
	if s.Error != nil {
		e.Code = s.Error.Code
	}
	h.emit(e)
}

// turnEnded records a model turn's receipt and tells the host.
func (t *taskRun) turnEnded(rc transport.TurnReceipt) {
	t.turns = append(t.turns, rc)
	if t.host != nil {
		t.host.emit(transport.TaskEvent{Task: t.host.id, Kind: transport.EventTurn, Turn: &rc})
	}
}

// actionEvent tells the host an action was accounted: by ref and role only (the element's
// name is the page's text, and a navigate's url the model's: finishTask's accounting has
// them, scrubbed; an event has neither).
func (h *hostedTask) actionEvent(a transport.TaskAction) {
	if h == nil {
		return
	}
	e := transport.TaskAction{Turn: a.Turn, Receipt: transport.Receipt{Action: a.Receipt.Action, Ref: a.Receipt.Ref, Role: a.Receipt.Role}, Outcome: a.Outcome, Diff: a.Diff}
	h.emit(transport.TaskEvent{Task: h.id, Kind: transport.EventAction, Action: &e})
}

func (h *hostedTask) emit(e transport.TaskEvent) {
	if h.events != nil {
		h.events(e)
	}
}

// hostedTask finds a task of this session by id.
func (r *Runtime) hostedTask(op, id string) (*hostedTask, error) {
	ht := r.hosted()
	ht.mu.Lock()
	defer ht.mu.Unlock()
	h, ok := ht.byID[id]
	if !ok {
		return nil, transport.NewError(op, transport.PhaseValidate, transport.CodeTaskNotFound, transport.RetryNever, transport.NotAttempted,
			"no task %q in this session (finishTask forgets a task)", id).WithPath("request.task")
	}
	return h, nil
}

// hosted is the session's hosted tasks, made on first use.
func (r *Runtime) hosted() *hostedTasks {
	r.hostedOnce.Do(func() {
		r.tasks.byID = map[string]*hostedTask{}
		r.tasks.ctx, r.tasks.stop = context.WithCancel(context.Background())
	})
	return &r.tasks
}

// runningTask is the id of the hosted task whose loop still runs ("" : none): while it
// runs it owns the session, and the host's other requests are refused.
func (r *Runtime) runningTask() string {
	ht := r.hosted()
	ht.mu.Lock()
	defer ht.mu.Unlock()
	for _, h := range ht.byID {
		if !h.settled() {
			return h.id
		}
	}
	return ""
}

// refuseWhileHosted refuses a host's request other than the lifecycle's own (and close, and
// attachEndpoint, which is how a person comes to take over) while a hosted task's loop owns the session.
func (r *Runtime) refuseWhileHosted(op transport.Operation) error {
	switch op.OpName() {
	case transport.OpRefreshTask, transport.OpCancelTask, transport.OpFinishTask, transport.OpAttachEndpoint, transport.OpClose:
		return nil
	}
	if id := r.runningTask(); id != "" {
		return transport.NewError(op.OpName(), transport.PhaseDispatch, transport.CodeTaskBusy, transport.RetryNever, transport.NotAttempted,
			"task %s owns the session until it settles; cancelTask stops it", id)
	}
	return nil
}

// stopHosted ends every hosted loop (the session is closing) and waits for them.
func (r *Runtime) stopHosted() {
	ht := r.hosted()
	ht.mu.Lock()
	for _, h := range ht.byID {
		h.halt(transport.StopSession, stopped(transport.CodeSessionEnded, "the session closed"))
	}
	ht.mu.Unlock()
	ht.stop()
	ht.loops.Wait()
}

// renamed names a task's refusal as op's.
func renamed(op string, err error) error {
	oe := *transport.AsOperationError(op, err)
	oe.Operation = op
	return &oe
}

// stopped is the error a stopped task ends with (its mutationState is the task's: asTask).
func stopped(code transport.Code, msg string) error {
	return transport.NewError(transport.OpTask, transport.PhaseDispatch, code, transport.RetryNever, transport.NotAttempted, "%s", msg)
}

// checkSample says why a refresh's facts sample (Unix ms, 0: none) cannot be trusted, as seed
// 001 lists them: from the future, older than the lease, or not newer than the previous
// refresh's sample (regressing, or the same sample replayed or rewritten); "" when it can.
// It keeps the newest sample time (under h.mu).
func (h *hostedTask) checkSample(ms int64, now time.Time) string {
	if ms == 0 {
		return ""
	}
	at := time.UnixMilli(ms)
	prev := h.lastSample
	if at.After(h.lastSample) {
		h.lastSample = at
	}
	switch {
	case at.After(now.Add(budgets.TaskSampleSkew)):
		return "the host's facts sample is from the future"
	case !prev.IsZero() && !at.After(prev):
		return "the host's facts sample is not newer than the previous refresh's (regressing, or replayed)"
	case h.lease > 0 && now.Sub(at) > h.lease:
		return "the host's facts sample is older than the lease"
	}
	return ""
}
