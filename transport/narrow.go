package transport

import "github.com/fastbrowser/fastbrowser/budgets"

// NarrowOriginPolicy asks for a context whose origins are a non-empty subset of the
// session's base. It changes nothing by itself: pass the returned context with later calls;
// a call without it runs under the base again.
type NarrowOriginPolicy struct {
	op[NarrowOriginPolicy, NarrowOriginPolicyResult]
	Origins []string `json:"origins" required:"true"`
}

// NarrowOriginPolicyResult carries the context, its origins normalised.
type NarrowOriginPolicyResult struct {
	Egress
	Context OperationContext `json:"context"`
}

func (r NarrowOriginPolicy) Validate() error {
	if len(r.Origins) == 0 {
		return Invalid(OpNarrowOriginPolicy, "request.origins", "expected at least one exact origin; narrowing is deny by default")
	}
	if len(r.Origins) > budgets.NarrowOrigins {
		return Invalid(OpNarrowOriginPolicy, "request.origins", "more than %d origins", budgets.NarrowOrigins)
	}
	return nil
}
