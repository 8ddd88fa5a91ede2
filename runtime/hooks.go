package runtime

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// The runtime's half of the operation table (transport/operations.go), as worker/dispatch.go
// is the worker's: an operation the runtime treats specially registers its hook next to the
// code that implements it, by request type,
//
//	var _ = answers((*Runtime).runTask)        // the runtime answers it; no worker call
//	var _ = prepares((*Runtime).prepareAct)    // before the worker call, on call's own copy
//	var _ = commits((*Runtime).commitDownload) // after the worker answered, before handles
//
// and call looks them up by name. Every other operation goes to the worker as it is.
// TestEveryRuntimeOperationHasItsHooks checks no row that needs a hook lacks one.

// answer runs an operation in place of the worker, under the caller's context.
type answer func(r *Runtime, ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error)

// prepare checks or rewrites the request (call's copy) under its effective policy before it
// takes the session's turn; an error refuses the operation, not attempted.
type prepare func(r *Runtime, op transport.Operation, pol policy.Policy) error

// commit turns a successful worker result into the caller's (an artifact payload into
// the store's metadata); an error fails the operation.
type commit func(r *Runtime, op transport.Operation, res transport.Result) (transport.Result, error)

var (
	answerHooks  = map[string]answer{}
	prepareHooks = map[string]prepare{}
	commitHooks  = map[string]commit{}
)

// operation is a pointer to request type Q, as call's copy of a request always is.
type operation[Q any] interface {
	*Q
	transport.Operation
}

// answers registers f as the runtime's own answer to the operation whose request type is Q.
func answers[Q any, PQ operation[Q]](f func(*Runtime, context.Context, PQ, *transport.OperationContext) (transport.Result, error)) bool {
	register(answerHooks, PQ(new(Q)).OpName(), "answers", func(r *Runtime, ctx context.Context, op transport.Operation, octx *transport.OperationContext) (transport.Result, error) {
		return f(r, ctx, op.(PQ), octx)
	})
	return true
}

// prepares registers f as what the runtime does to a request of type Q before it is sent.
func prepares[Q any, PQ operation[Q]](f func(*Runtime, PQ, policy.Policy) error) bool {
	register(prepareHooks, PQ(new(Q)).OpName(), "prepares", func(r *Runtime, op transport.Operation, pol policy.Policy) error {
		return f(r, op.(PQ), pol)
	})
	return true
}

// commits registers f as what the runtime does to the result of a request of type Q; R is
// Q's result type, so f cannot be registered for another operation's result.
func commits[Q any, R any, PQ interface {
	operation[Q]
	transport.Request[R]
}](f func(*Runtime, PQ, *R) (transport.Result, error)) bool {
	register(commitHooks, PQ(new(Q)).OpName(), "commits", func(r *Runtime, op transport.Operation, res transport.Result) (transport.Result, error) {
		got, ok := any(res).(*R)
		if !ok {
			return res, nil // not Q's result type (the worker always answers with it): nothing to commit
		}
		return f(r, op.(PQ), got)
	})
	return true
}

func register[H any](hooks map[string]H, name, kind string, h H) {
	if _, dup := hooks[name]; dup {
		panic("runtime: two hooks " + kind + " " + name)
	}
	hooks[name] = h
}
