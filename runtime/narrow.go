package runtime

import (
	"github.com/fastbrowser/fastbrowser/runtime/policy"
)

// narrow computes a narrowed policy from the session base: deny by default, exact origins
// only, every one inside the base. The base itself never changes. path names the field the
// origins came from (request.origins or context.origins).
func (r *Runtime) narrow(op, path string, origins []string) (policy.Policy, error) {
	p, err := r.base.Narrow(origins)
	return p, policy.Refusal(op, path, err)
}
