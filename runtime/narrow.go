package runtime

import (
	"context"

	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = answers((*Runtime).narrowOriginPolicy)

// narrowOriginPolicy is answered here, never by the worker: a context is the runtime's to
// give, and nothing reaches the page.
func (r *Runtime) narrowOriginPolicy(_ context.Context, req *transport.NarrowOriginPolicy, _ *transport.OperationContext) (transport.Result, error) {
	p, err := r.narrow(req.OpName(), "request.origins", req.Origins)
	if err != nil {
		return nil, err
	}
	return &transport.NarrowOriginPolicyResult{Context: transport.OperationContext{Origins: p.Origins()}}, nil
}

// narrow computes a narrowed policy from the session base: deny by default, exact origins
// only, every one inside the base. The base itself never changes. path names the field the
// origins came from (request.origins or context.origins).
func (r *Runtime) narrow(op, path string, origins []string) (policy.Policy, error) {
	p, err := r.base.Narrow(origins)
	return p, transport.PolicyRefusal(op, path, err)
}
