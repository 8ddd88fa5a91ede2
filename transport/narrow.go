package transport

import "github.com/fastbrowser/fastbrowser/budgets"

// OpNarrowOriginPolicy names the operation that computes a narrowed per-call context.
const OpNarrowOriginPolicy = "narrowOriginPolicy"

// NarrowOriginPolicy asks for a context whose origins are a non-empty subset of the
// session's base. It changes nothing by itself: pass the returned context with later calls;
// a call without it runs under the base again.
type NarrowOriginPolicy struct {
	Origins []string `json:"origins" required:"true"`
}

// NarrowOriginPolicyResult carries the context, its origins normalised.
type NarrowOriginPolicyResult struct {
	Egress
	Context OperationContext `json:"context"`
}

func (NarrowOriginPolicy) OpName() string                     { return OpNarrowOriginPolicy }
func (NarrowOriginPolicy) Mutates() bool                      { return false }
func (*NarrowOriginPolicy) TabRefs() []*string                { return nil }
func (NarrowOriginPolicy) newResult() Result                  { return &NarrowOriginPolicyResult{} }
func (NarrowOriginPolicy) resultOf() NarrowOriginPolicyResult { return NarrowOriginPolicyResult{} }
func (*NarrowOriginPolicyResult) TabRefs() []*string          { return nil }

func (r NarrowOriginPolicy) Validate() error {
	if len(r.Origins) == 0 {
		return Invalid(OpNarrowOriginPolicy, "request.origins", "expected at least one exact origin; narrowing is deny by default")
	}
	if len(r.Origins) > budgets.NarrowOrigins {
		return Invalid(OpNarrowOriginPolicy, "request.origins", "more than %d origins", budgets.NarrowOrigins)
	}
	return nil
}
