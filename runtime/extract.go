package runtime

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
)

// runExtract answers extract (docs/models.md "extract").
func (r *Runtime) runExtract(ctx context.Context, req *transport.Extract, octx *transport.OperationContext) (transport.Result, error) {
	if r.model == nil {
		return nil, modelRequired(transport.OpExtract)
	}
	return nil, transport.NewError(transport.OpExtract, transport.PhaseValidate, transport.CodeInternal, transport.RetryNever, transport.NotAttempted, "extract is not built yet")
}
