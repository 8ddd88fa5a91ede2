package transport

import (
	"context"
	"fmt"
)

// Caller runs one operation. wire.Conn (a worker over a pair of streams) and
// runtime.Runtime (a browser session) are Callers; Dispatch gives either of them a typed face.
type Caller interface {
	Call(ctx context.Context, op Operation, octx *OperationContext) (Result, error)
}

// Dispatch runs req on c and returns the result type that req's type names:
// Dispatch(ctx, c, Navigate{URL: u}) returns a NavigateResult.
func Dispatch[Q Request[R], R any](ctx context.Context, c Caller, req Q, octx ...*OperationContext) (R, error) {
	var zero R
	// *Q is an Operation for every request type (they all embed op[Q, R] and define
	// Validate on the value), but Go cannot say so of a type parameter's pointer.
	op, ok := any(&req).(Operation)
	if !ok {
		return zero, NewError(req.OpName(), PhaseValidate, CodeInternal, RetryNever, NotAttempted, "operation type %T is not dispatchable", req)
	}
	var oc *OperationContext
	if len(octx) > 0 {
		oc = octx[0]
	}
	res, err := c.Call(ctx, op, oc)
	if err != nil {
		return zero, err
	}
	typed, ok := any(res).(*R)
	if !ok {
		return zero, NewError(req.OpName(), PhaseDispatch, CodeProtocolError, RetryNever, Unknown,
			"result of type %s does not match the operation", fmt.Sprintf("%T", res))
	}
	return *typed, nil
}
