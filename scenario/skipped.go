package scenario

// Skipped is the report of a scenario that never started (--fail-fast after a failure, or
// an interrupted run): every operation skipped, nothing else happened.
func Skipped(l *Loaded) ScenarioReport {
	r := ScenarioReport{ID: l.ID, File: l.Path, SHA256: l.SHA256, Status: StatusSkipped, Events: []Event{}, Enforcement: []string{}}
	for i, op := range l.Operations {
		r.Operations = append(r.Operations, OperationReport{Index: i, ID: op.ID, Op: op.Op, Status: StatusSkipped})
	}
	return r
}
