package scenario

import "github.com/fastbrowser/fastbrowser/transport"

// Cause is the error that ended a scenario that did not pass, and the operation it is from
// (nil: the scenario's own error). A failure is an operation's verdict, so a failed
// scenario's failing operation comes first, its scenario error the fallback; an error or an
// interruption is the scenario's, its failing operation standing in when it recorded none.
// junit.xml and `run --json` name the same cause. Both are nil when nothing recorded one.
func (s *ScenarioReport) Cause() (*OperationReport, *transport.OperationError) {
	for i := range s.Operations {
		if op := &s.Operations[i]; op.Error != nil {
			if s.Status == StatusFailed || s.Error == nil {
				return op, op.Error
			}
			break
		}
	}
	return nil, s.Error
}
