package transport

import "errors"

// Failure evidence travels beside an operation's error, never inside it. The runtime, when
// an operation fails, captures what the page showed and returns the *OperationError wrapped
// in an *EvidencedError: the OperationError stays exactly what the operation said (code,
// message, retry, mutation state) and the evidence sits next to it.
//
// Callers that only care about the failure see no difference: errors.As(err, &oe),
// errors.Is(err, ErrCode(c)), AsOperationError and PostureOf all reach the OperationError
// through Unwrap. Callers that keep evidence read it with EvidenceOf: the scenario runner
// lists it on the operation's report entry, and Serve writes it into the error object of the
// response frame ("evidence", "evidenceUnavailable"), where protocol v1 has it on the wire.
// A caller that rewrites a failure (a step renaming the failed operation) keeps the evidence
// with KeepEvidence.

// EvidencedError is a failed operation with the failure evidence the runtime kept for it.
type EvidencedError struct {
	Err *OperationError
	// Evidence is the committed artifacts (metadata only); Unavailable the parts that could
	// not be kept, and why.
	Evidence    []ArtifactMeta
	Unavailable []UnavailablePart
}

func (e *EvidencedError) Error() string { return e.Err.Error() }

// Unwrap gives errors.As and errors.Is the OperationError.
func (e *EvidencedError) Unwrap() error { return e.Err }

// WithEvidence returns oe with the evidence beside it; with no evidence at all, oe itself.
func WithEvidence(oe *OperationError, evidence []ArtifactMeta, unavailable []UnavailablePart) error {
	if len(evidence) == 0 && len(unavailable) == 0 {
		return oe
	}
	return &EvidencedError{Err: oe, Evidence: evidence, Unavailable: unavailable}
}

// EvidenceOf returns the failure evidence err carries beside it (none for any other error).
func EvidenceOf(err error) (evidence []ArtifactMeta, unavailable []UnavailablePart) {
	var ee *EvidencedError
	if errors.As(err, &ee) {
		return ee.Evidence, ee.Unavailable
	}
	return nil, nil
}

// KeepEvidence returns oe with the evidence that from carries, so rewriting a failure does
// not drop what was captured for it.
func KeepEvidence(oe *OperationError, from error) error {
	evidence, unavailable := EvidenceOf(from)
	return WithEvidence(oe, evidence, unavailable)
}
