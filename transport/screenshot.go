package transport

// Screenshot takes a tab's redacted screenshot into the session's artifact store: the
// screenshot operation of scenario files (issue 11). Unlike captureEvidence, which reports a
// part it could not keep as unavailable, a screenshot whose redaction cannot be proven fails
// the operation (redaction_not_proven): the screenshot is what the caller asked for. The
// session's redaction rules always apply; Redaction can only add to them.
type Screenshot struct {
	op[Screenshot, ScreenshotResult]
	Tab       string          `json:"tab,omitempty" handle:"tab"`
	Redaction []RedactionRule `json:"redaction,omitempty"`
	// BudgetMs bounds the capture as captureEvidence's does (0: 10 s; floor 2 s, ceiling 60 s).
	BudgetMs int `json:"budgetMs,omitempty"`
}

// ScreenshotResult: from the worker it carries the PNG as Payload; the runtime commits it and
// returns Artifact (metadata) in its place.
type ScreenshotResult struct {
	Egress
	Tab string `json:"tab" handle:"tab"`
	Committed
	Redaction *RedactionProof `json:"redaction"`
}

func (r Screenshot) captureBudgetMs() int { return r.BudgetMs }

func (r Screenshot) Validate() error {
	if err := checkTab(OpScreenshot, "request.tab", r.Tab, false); err != nil {
		return err
	}
	if err := checkCaptureBudget(OpScreenshot, r.BudgetMs); err != nil {
		return err
	}
	return ValidateRedaction(OpScreenshot, "request.redaction", r.Redaction)
}
