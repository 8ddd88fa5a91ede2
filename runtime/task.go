package runtime

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
)

// runTask answers task (docs/models.md "task").
func (r *Runtime) runTask(ctx context.Context, req *transport.Task, octx *transport.OperationContext) (transport.Result, error) {
	if r.model == nil {
		return nil, modelRequired(transport.OpTask)
	}
	return nil, transport.NewError(transport.OpTask, transport.PhaseValidate, transport.CodeInternal, transport.RetryNever, transport.NotAttempted, "task is not built yet")
}

// modelRequired refuses an operation that needs a model in a session that has none.
func modelRequired(op string) error {
	return transport.NewError(op, transport.PhaseValidate, transport.CodeModelRequired, transport.RetryNever, transport.NotAttempted,
		"%s needs a model and this session has none; configure one with --model or a \"model\" in the scenario or run config (docs/models.md)", op)
}
