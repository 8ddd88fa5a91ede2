package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/fastbrowser/fastbrowser/transport"
)

// mainTask owns the session most checks run in.
const mainTask = "conformance"

// hostCaller calls the host's own operations (openSession, closeSession, endTask).
type hostCaller struct{ host Host }

func (c hostCaller) Call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	return c.host.Handle(ctx, op, octx)
}

// owned is one session as a task calls it: every call names the session and the task, as a
// frame to `serve --binding-origin` does, so ownership and expiry are checked on each.
type owned struct {
	host     Host
	id, task string
}

func (s owned) Call(ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
	return s.host.Handle(transport.WithOwner(ctx, transport.Owner{Session: s.id, Task: s.task}), op, octx)
}

// as is the same session called by another task.
func (s owned) as(task string) owned { return owned{host: s.host, id: s.id, task: task} }

// openSession opens a session for task; req's allowedOrigins default to the fixture's.
func (e *env) openSession(ctx context.Context, task string, req transport.OpenSession) (owned, error) {
	req.Task = task
	if req.AllowedOrigins == nil {
		req.AllowedOrigins = []string{e.fixture}
	}
	res, err := transport.Dispatch(ctx, hostCaller{e.calls}, req)
	if err != nil {
		return owned{}, err
	}
	return owned{host: e.calls, id: res.Session, task: task}, nil
}

// endTask ends every session of task (a check's own sessions, when it is done).
func (e *env) endTask(ctx context.Context, task string) {
	_, _ = transport.Dispatch(ctx, hostCaller{e.calls}, transport.EndTask{Task: task})
}

// batch runs actions as one batch in s.
func batch(ctx context.Context, s transport.Caller, actions ...transport.BatchAction) (transport.BatchResult, error) {
	return transport.Dispatch(ctx, s, transport.Batch{Actions: actions})
}

func navigateAction(url string) transport.BatchAction {
	return transport.BatchAction{Action: transport.VerbNavigate, URL: url}
}

func pageTextAction() transport.BatchAction {
	return transport.BatchAction{Action: transport.VerbPageText}
}

// resultOf decodes a batch action's result into out.
func resultOf(a transport.BatchActionResult, out any) error {
	if a.Status != transport.ActionOK {
		return fmt.Errorf("action %d (%s) is %s, not ok: %v", a.Index, a.Action, a.Status, a.Error)
	}
	if err := json.Unmarshal(a.Result, out); err != nil {
		return fmt.Errorf("action %d (%s): its result: %w", a.Index, a.Action, err)
	}
	return nil
}

// endLog records each session's end as the host reports it (registry.Options.OnEnd), so a
// check waits for an expiry as an event, not by sleeping.
type endLog struct {
	mu    sync.Mutex
	ended map[string]string
	wake  chan struct{} // closed and replaced on each end
}

func newEndLog() *endLog { return &endLog{ended: map[string]string{}, wake: make(chan struct{})} }

func (l *endLog) note(session, why string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ended[session] = why
	close(l.wake)
	l.wake = make(chan struct{})
}

// wait returns why session ended, once it has, or an error when within does not see it.
func (l *endLog) wait(ctx context.Context, session string, within time.Duration) (string, error) {
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		l.mu.Lock()
		why, ok := l.ended[session]
		wake := l.wake
		l.mu.Unlock()
		if ok {
			return why, nil
		}
		select {
		case <-wake:
		case <-timer.C:
			return "", fmt.Errorf("session %s did not end within %s", session, within)
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
