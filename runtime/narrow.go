package runtime

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/runtime/policy"
	"github.com/fastbrowser/fastbrowser/transport"
)

// narrow computes a narrowed policy from the session base: deny by default, exact origins
// only, every one inside the base. The base itself never changes. path names the field the
// origins came from (request.origins or context.origins).
func (r *Runtime) narrow(op, path string, origins []string) (policy.Policy, error) {
	p, err := r.base.Narrow(origins)
	if err == nil {
		return p, nil
	}
	var de *policy.DeniedError
	if errors.As(err, &de) {
		return policy.Policy{}, transport.NewError(op, transport.PhasePolicy, transport.CodeOriginDenied, transport.RetryNever, transport.NotAttempted, "%s", de.Reason).WithPath(path)
	}
	return policy.Policy{}, transport.Invalid(op, path, "%s", err.Error())
}
