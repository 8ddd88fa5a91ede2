package runtime

import (
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var _ = prepares((*Runtime).prepareNavigate)

// prepareNavigate refuses a URL the effective policy does not allow before the session's turn
// is taken: the worker's interception would refuse it too, but only after dispatch.
func (r *Runtime) prepareNavigate(req *transport.Navigate, pol policy.Policy) error {
	if _, err := pol.CheckURL(req.URL); err != nil {
		return transport.PolicyRefusal(req.OpName(), "request.url", err)
	}
	return nil
}
