package scenario

// Skipped is the report of a scenario that never started (--fail-fast after a failure, or
// an interrupted run): every operation skipped, nothing else happened. reason says which.
func Skipped(l *Loaded, reason string) ScenarioReport {
	r := ScenarioReport{ID: l.ID, Project: l.Project, Variables: l.Variables, Description: l.Description, Tags: l.Tags, File: l.Path, SHA256: l.SHA256, Status: StatusSkipped,
		SkipReason: reason, Events: []Event{}, Enforcement: []string{}}
	for i := range l.Operations {
		r.Operations = append(r.Operations, newOperationReport(i, &l.Operations[i]))
	}
	return r
}
