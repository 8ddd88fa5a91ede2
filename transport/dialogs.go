package transport

// Dialog is one JavaScript dialog a page opened and the worker answered: its type (alert,
// confirm, prompt, beforeunload), its message (at most budgets.DialogMessageChars
// characters, secrets scrubbed) and the answer (dismissed or accepted).
type Dialog struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	Action  string `json:"action"`
}

// What an act may ask the worker to answer the dialogs it opens with ("" is dismiss).
const (
	DialogAccept  = "accept"
	DialogDismiss = "dismiss"
)

// What a reported dialog was answered with.
const (
	DialogAccepted  = "accepted"
	DialogDismissed = "dismissed"
)

// DialogsOf returns the dialogs a result reports.
func DialogsOf(r Result) []Dialog {
	if r == nil {
		return nil
	}
	return r.egress().Dialogs
}

// SetDialogs records the dialogs answered during an operation (and since the previous one)
// on its result.
func SetDialogs(r Result, d []Dialog) { r.egress().Dialogs = d }
