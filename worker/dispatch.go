package worker

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// The worker's half of the operation table (transport/operations.go): each operation's
// implementation registers itself next to its code with
//
//	var _ = handles((*Worker).listTabs)
//
// (handlesTab for an operation on one tab) and run dispatches by name.
// TestEveryOperationHasAHandler checks the table has no row without one.

// handler runs one decoded request under its effective origin policy.
type handler func(w *Worker, ctx context.Context, op transport.Operation, pol policy.Policy) (transport.Result, error)

var handlers = map[string]handler{}

// handles registers f as the implementation of the operation whose request type is Q.
func handles[Q any, PQ interface {
	*Q
	transport.Operation
}](f func(*Worker, context.Context, PQ, policy.Policy) (transport.Result, error)) bool {
	name := PQ(new(Q)).OpName()
	if _, dup := handlers[name]; dup {
		panic("worker: two handlers for " + name)
	}
	handlers[name] = func(w *Worker, ctx context.Context, op transport.Operation, pol policy.Policy) (transport.Result, error) {
		return f(w, ctx, op.(PQ), pol)
	}
	return true
}

// handlesTab registers f as the implementation of an operation on one tab: the dispatcher
// resolves the tab the request names in its handle field (transport.TabOf; the selected tab
// when it names none) and f runs only when there is one, with tabFor's error otherwise.
func handlesTab[Q any, PQ interface {
	*Q
	transport.Operation
}](f func(*Worker, context.Context, *tab, PQ, policy.Policy) (transport.Result, error)) bool {
	return handles[Q](func(w *Worker, ctx context.Context, r PQ, pol policy.Policy) (transport.Result, error) {
		t, err := w.tabFor(r.OpName(), transport.TabOf(r))
		if err != nil {
			return nil, err
		}
		return f(w, ctx, t, r, pol)
	})
}

func (w *Worker) run(ctx context.Context, op transport.Operation, pol policy.Policy) (res transport.Result, err error) {
	defer func() { res, err = w.blameBrowser(op, res, err) }()
	h, ok := handlers[op.OpName()]
	if !ok && transport.SpecOf(op).Runtime {
		// A parent driving the worker directly has no model: the runtime answers these.
		return nil, transport.NewError(op.OpName(), transport.PhaseValidate, transport.CodeModelRequired, transport.RetryNever, transport.NotAttempted,
			"%s needs a model, which the runtime holds (runtime.Options.Model, `--model`); a worker has none", op.OpName())
	}
	if !ok {
		return nil, transport.Invalid(op.OpName(), "op", "operation not supported by this worker")
	}
	return h(w, ctx, op, pol)
}

var _ = handles((*Worker).narrowOriginPolicy)

// narrowOriginPolicy answers from the worker's own base: a parent driving the worker
// directly gets the same deny-by-default narrowing as one going through the runtime.
func (w *Worker) narrowOriginPolicy(_ context.Context, r *transport.NarrowOriginPolicy, _ policy.Policy) (transport.Result, error) {
	p, err := w.narrow(r.OpName(), "request.origins", r.Origins)
	if err != nil {
		return nil, err
	}
	return &transport.NarrowOriginPolicyResult{Context: transport.OperationContext{Origins: p.Origins()}}, nil
}

var _ = handles((*Worker).close)

// close disposes of the browser context; wire.Serve ends after answering it.
func (w *Worker) close(context.Context, *transport.Close, policy.Policy) (transport.Result, error) {
	w.teardown()
	return &transport.CloseResult{Closed: true}, nil
}
