package budgets

// JavaScript dialog limits (alert, confirm, prompt, beforeunload).
const (
	PromptTextChars    = 1000 // the text an act may answer a prompt with
	DialogMessageChars = 200  // a dialog's message as a result reports it
	DialogsReported    = 32   // dialogs one result lists; later ones are answered, not listed
)
