package runtime

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
)

var _ = answers((*Runtime).attachEndpoint)

// attachEndpoint hands the session's parent the endpoint a person attaches through: the
// token websocket of the browser launched for this session alone (DevToolsURL), which
// starts listening on the first ask. A browser the session attached to is reached where the
// parent already knows, and one shared with other sessions must not be handed to a person
// of one of them: both are refused.
func (r *Runtime) attachEndpoint(_ context.Context, req *transport.AttachEndpoint, _ *transport.OperationContext) (transport.Result, error) {
	refuse := func(why string) error {
		return transport.NewError(req.OpName(), transport.PhaseValidate, transport.CodeInvalidRequest, transport.RetryNever, transport.NotAttempted,
			"this session has no attach endpoint: %s", why)
	}
	switch {
	case r.launched == nil:
		return nil, refuse("its browser is not fastbrowser's (attached at a DevTools endpoint its parent already has)")
	case !r.ownAlloc:
		return nil, refuse("its browser is shared with other sessions, which a person attaching would see too")
	}
	url := r.DevToolsURL()
	if url == "" {
		return nil, transport.NewError(req.OpName(), transport.PhaseExecute, transport.CodeInternal, transport.RetryNever, transport.NotAttempted,
			"the browser's attach endpoint could not listen (FASTBROWSER_DEBUG=1 shows why)")
	}
	return &transport.AttachEndpointResult{URL: url}, nil
}
