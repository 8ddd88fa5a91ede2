package policy

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/transport"
)

// Refusal turns a policy check's error into the protocol's error: an origin outside the
// policy is origin_denied (phase policy), a malformed entry invalid_request; both are
// not_attempted. The runtime and the worker both check, so both map errors here.
func Refusal(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var de *DeniedError
	if errors.As(err, &de) {
		return transport.NewError(op, transport.PhasePolicy, transport.CodeOriginDenied, transport.RetryNever, transport.NotAttempted, "%s", de.Reason).WithPath(path)
	}
	return transport.Invalid(op, path, "%s", err.Error())
}
