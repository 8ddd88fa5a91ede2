package transport

import (
	"errors"

	"github.com/fastbrowser/fastbrowser/transport/policy"
)

// PolicyRefusal turns a policy check's error into the protocol's error: an origin outside the
// policy is origin_denied (phase policy), a malformed entry invalid_request; both are
// not_attempted. The runtime and the worker both check, so both map errors here.
func PolicyRefusal(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var de *policy.DeniedError
	if errors.As(err, &de) {
		return NewError(op, PhasePolicy, CodeOriginDenied, RetryNever, NotAttempted, "%s", de.Reason).WithPath(path)
	}
	return Invalid(op, path, "%s", err.Error())
}
